import {
  CONTROLLER_REVISION_HASH_LABEL,
  ControllerRevisionKind,
  PersistentVolumeClaimKind,
  PodKind,
  StatefulSetKind,
  type Pod,
  type StatefulSet,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, SharedInformerFactory } from '@orch/client';
import { deletedObject } from '@orch/component-base';
import { startCluster, statusReaching as reaching, type Cluster } from './harness';

jest.setTimeout(120_000);

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.close();
});

const NS = 'default';

function statefulSet(name: string, extra: Partial<NonNullable<StatefulSet['spec']>> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: NS },
    spec: {
      replicas: 3,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'db', image: 'db:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      ...extra,
    },
  } as StatefulSet;
}

const pods = () => clientFor(cluster.rest, PodKind);

/** The set's live pods by name. */
async function livePods(app: string): Promise<Map<string, Pod>> {
  const list = await pods().list({ namespace: NS, labelSelector: `app=${app}` });
  return new Map(
    list.items.filter((p) => !p.metadata?.deletionTimestamp).map((p) => [p.metadata!.name!, p] as const),
  );
}

/** The set once its status reports `expected` for its current generation. */
const statusReaching = (
  name: string,
  expected: Partial<NonNullable<StatefulSet['status']>>,
): Promise<StatefulSet> => reaching(clientFor(cluster.rest, StatefulSetKind), name, expected);

/** Records, from an informer, the order in which the set's pods are created and deleted. */
async function recordOrder(app: string): Promise<{ events: string[]; stop(): Promise<void> }> {
  const events: string[] = [];
  const informers = new SharedInformerFactory(cluster.rest, {});
  const informer = informers.informerFor<Pod>({
    group: '',
    version: 'v1',
    resource: 'pods',
    namespaced: true,
  });
  let synced = false;
  const ours = (pod: Pod): boolean => synced && pod.metadata?.labels?.app === app;
  informer.addEventHandler({
    onAdd: (pod) => {
      if (ours(pod)) events.push(`+${pod.metadata?.name}`);
    },
    onDelete: (obj) => {
      const pod = deletedObject(obj);
      if (ours(pod)) events.push(`-${pod.metadata?.name}`);
    },
  });
  informers.start();
  await informers.waitForCacheSync();
  synced = true;
  return { events, stop: () => informers.shutdown() };
}

test('OrderedReady: pods one at a time with stable names, identities and claims; scaled down from the top', async () => {
  const sets = clientFor(cluster.rest, StatefulSetKind);
  cluster.pauseKubelet(true);
  await sets.create(statefulSet('db'));
  // web-1 waits for web-0 to be running and ready
  await eventually(async () => (await livePods('db')).has('db-0'), 'db-0', 30_000);
  await new Promise((r) => setTimeout(r, 500));
  expect([...(await livePods('db')).keys()]).toEqual(['db-0']);
  cluster.pauseKubelet(false);
  const set = await statusReaching('db', {
    replicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    updatedReplicas: 3,
  });
  expect(set.status?.currentRevision).toBe(set.status?.updateRevision);
  expect(set.status?.currentReplicas).toBe(3);

  const all = await livePods('db');
  expect([...all.keys()].sort()).toEqual(['db-0', 'db-1', 'db-2']);
  for (const [name, pod] of all) {
    const ordinal = name.slice(3);
    expect(pod.metadata?.labels).toEqual({
      app: 'db',
      [CONTROLLER_REVISION_HASH_LABEL]: set.status?.updateRevision,
      'statefulset.kubernetes.io/pod-name': name,
      'apps.kubernetes.io/pod-index': ordinal,
    });
    expect(pod.spec?.hostname).toBe(name);
    expect(pod.spec?.subdomain).toBe('db');
    expect(pod.spec?.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim).toEqual({
      claimName: `data-${name}`,
    });
  }
  const claims = await clientFor(cluster.rest, PersistentVolumeClaimKind).list({
    namespace: NS,
    labelSelector: 'app=db',
  });
  expect(claims.items.map((c) => c.metadata?.name).sort()).toEqual(['data-db-0', 'data-db-1', 'data-db-2']);
  expect(await cluster.kubectl('rollout', 'status', 'statefulset/db', '--timeout=30s')).toContain(
    'partitioned roll out complete: 3 new pods have been updated...',
  );
  expect(await cluster.kubectl('get', 'sts', 'db')).toMatch(/^NAME\s+READY\s+AGE\ndb\s+3\/3\s+\S+\n$/);

  const order = await recordOrder('db');
  await cluster.kubectl('scale', 'statefulset/db', '--replicas=1');
  await statusReaching('db', { replicas: 1, readyReplicas: 1 });
  await eventually(async () => (await livePods('db')).size === 1, 'one db pod', 30_000);
  await order.stop();
  expect(order.events).toEqual(['-db-2', '-db-1']);
  // the claims stay (whenScaled Retain), and are used again by the pods scaling up
  expect(
    (
      await clientFor(cluster.rest, PersistentVolumeClaimKind).list({
        namespace: NS,
        labelSelector: 'app=db',
      })
    ).items,
  ).toHaveLength(3);
  await cluster.kubectl('scale', 'statefulset/db', '--replicas=3');
  await statusReaching('db', { replicas: 3, readyReplicas: 3 });
});

test('a rolling update goes from the highest ordinal down to the partition; undo rolls back', async () => {
  const sets = clientFor(cluster.rest, StatefulSetKind);
  await cluster.kubectl(
    'patch',
    'statefulset/db',
    '-p',
    '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}',
  );
  await cluster.kubectl('set', 'image', 'statefulset/db', 'db=db:2');
  const partitioned = await statusReaching('db', { updatedReplicas: 1, readyReplicas: 3 });
  expect(partitioned.status?.currentRevision).not.toBe(partitioned.status?.updateRevision);
  const images = async () =>
    Object.fromEntries([...(await livePods('db'))].map(([n, p]) => [n, p.spec?.containers[0]?.image]));
  expect(await images()).toEqual({ 'db-0': 'db:1', 'db-1': 'db:1', 'db-2': 'db:2' });
  expect(await cluster.kubectl('rollout', 'status', 'statefulset/db', '--timeout=30s')).toContain(
    'partitioned roll out complete: 1 new pods have been updated...',
  );

  const order = await recordOrder('db');
  await cluster.kubectl(
    'patch',
    'statefulset/db',
    '-p',
    '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}',
  );
  const done = await statusReaching('db', { updatedReplicas: 3, readyReplicas: 3, currentReplicas: 3 });
  await order.stop();
  expect(done.status?.currentRevision).toBe(done.status?.updateRevision);
  expect(order.events.filter((e) => e.startsWith('-'))).toEqual(['-db-1', '-db-0']);
  expect(await images()).toEqual({ 'db-0': 'db:2', 'db-1': 'db:2', 'db-2': 'db:2' });

  const revisions = await clientFor(cluster.rest, ControllerRevisionKind).list({
    namespace: NS,
    labelSelector: 'app=db',
  });
  expect(revisions.items.map((r) => r.revision).sort()).toEqual([1, 2]);
  expect(await cluster.kubectl('rollout', 'history', 'statefulset/db')).toMatch(/1\s+<none>\n2\s+<none>/);
  expect(await cluster.kubectl('rollout', 'undo', 'statefulset/db')).toContain(
    'statefulset.apps/db rolled back',
  );
  const back = await statusReaching('db', { updatedReplicas: 3, readyReplicas: 3, currentReplicas: 3 });
  expect(back.status?.currentRevision).toBe(back.status?.updateRevision);
  expect(await images()).toEqual({ 'db-0': 'db:1', 'db-1': 'db:1', 'db-2': 'db:1' });
  const renumbered = await clientFor(cluster.rest, ControllerRevisionKind).list({
    namespace: NS,
    labelSelector: 'app=db',
  });
  expect(renumbered.items.map((r) => r.revision).sort()).toEqual([2, 3]);
  expect((await sets.get('db', { namespace: NS })).status?.updateRevision).toBe(
    renumbered.items.find((r) => r.revision === 3)?.metadata?.name,
  );
});

test('a failed pod is recreated under the same name', async () => {
  const failed = (await livePods('db')).get('db-1')!;
  cluster.pauseKubelet(true);
  await pods().patch(
    'db-1',
    'merge',
    { status: { phase: 'Failed' } },
    { namespace: NS, subresource: 'status' },
  );
  const again = await eventually(
    async () => {
      const pod = (await livePods('db')).get('db-1');
      return pod && pod.metadata?.uid !== failed.metadata?.uid ? pod : undefined;
    },
    'db-1 recreated',
    30_000,
  );
  cluster.pauseKubelet(false);
  expect(again.spec?.hostname).toBe('db-1');
  await statusReaching('db', { readyReplicas: 3 });
});

test('Parallel creates and removes every pod at once; whenScaled Delete removes the claims of removed pods', async () => {
  cluster.pauseKubelet(true);
  await clientFor(cluster.rest, StatefulSetKind).create(
    statefulSet('cache', {
      podManagementPolicy: 'Parallel',
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
    }),
  );
  // all three exist while none is running
  await eventually(async () => (await livePods('cache')).size === 3, 'three cache pods', 30_000);
  cluster.pauseKubelet(false);
  await statusReaching('cache', { readyReplicas: 3 });
  await cluster.kubectl('scale', 'statefulset/cache', '--replicas=1');
  await eventually(async () => (await livePods('cache')).size === 1, 'one cache pod', 30_000);
  const claims = clientFor(cluster.rest, PersistentVolumeClaimKind);
  await eventually(
    async () =>
      (await claims.list({ namespace: NS, labelSelector: 'app=cache' })).items
        .map((c) => c.metadata?.name)
        .join() === 'data-cache-0',
    'only data-cache-0 left',
    30_000,
  );
});
