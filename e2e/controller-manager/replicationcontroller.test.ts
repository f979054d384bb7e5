import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PodKind,
  ReplicationControllerKind,
  type Event,
  type Pod,
  type ReplicationController,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, EventBroadcaster, eventSinkFor } from '@orch/client';
import { CONTROLLER_REGISTRY } from '@orch/controller-manager';
import { startCluster, statusReaching, type Cluster } from './harness';

jest.setTimeout(90_000);

let cluster: Cluster;
let dir: string;
const broadcasters: EventBroadcaster[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-rc-'));
  // events go to the apiserver, from each controller's source component
  cluster = await startCluster({
    recorderFor: (name, client) => {
      const broadcaster = new EventBroadcaster(eventSinkFor(client));
      broadcasters.push(broadcaster);
      return broadcaster.newRecorder({
        component: CONTROLLER_REGISTRY[name]?.eventComponent ?? `${name}-controller`,
      });
    },
  });
});
afterAll(async () => {
  await Promise.all(broadcasters.map((b) => b.shutdown()));
  await cluster?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rcs = () => clientFor(cluster.rest, ReplicationControllerKind);
const pods = () => clientFor(cluster.rest, PodKind);

/** Applies a manifest with stock kubectl. */
async function apply(name: string, manifest: string): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, manifest);
  return cluster.kubectl('apply', '-f', file);
}

/** An RC with no selector: it defaults to the template's labels. */
const rcManifest = (name: string, replicas: number): string => `
apiVersion: v1
kind: ReplicationController
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: ${replicas}
  template:
    metadata:
      labels:
        app: ${name}
        tier: web
    spec:
      containers:
      - name: nginx
        image: nginx
`;

async function activePods(selector: string): Promise<Pod[]> {
  const list = await pods().list({ namespace: 'default', labelSelector: selector });
  return list.items.filter((p) => !p.metadata?.deletionTimestamp);
}

function running(name: string, replicas: number): Promise<ReplicationController> {
  return statusReaching(rcs(), name, {
    replicas,
    fullyLabeledReplicas: replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
  });
}

test('an RC keeps its replicas of its template, owns them and reports them as Kubernetes does', async () => {
  expect(await apply('web', rcManifest('web', 3))).toContain('replicationcontroller/web created');
  const rc = await running('web', 3);
  expect(rc.spec?.selector).toEqual({ app: 'web', tier: 'web' });
  expect(rc.status).toEqual({
    replicas: 3,
    fullyLabeledReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    observedGeneration: rc.metadata?.generation,
  });
  const owned = await activePods('app=web');
  expect(owned).toHaveLength(3);
  for (const pod of owned) {
    expect(pod.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(pod.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'web',
        uid: rc.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  }
  const table = await cluster.kubectl('get', 'rc', 'web');
  expect(table.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/);
  expect(table.split('\n')[1]).toMatch(/^web\s+3\s+3\s+3\s+/);
  const wide = await cluster.kubectl('get', 'replicationcontrollers', 'web', '-o', 'wide');
  expect(wide).toMatch(/web\s+3\s+3\s+3\s+\S+\s+nginx\s+nginx\s+app=web,tier=web/);

  // events, from the replication-controller component, about the ReplicationController
  const events = await eventually(
    async () => {
      const list = await clientFor(cluster.rest, {
        group: '',
        version: 'v1',
        resource: 'events',
        namespaced: true,
      }).list({ namespace: 'default', fieldSelector: 'involvedObject.name=web,reason=SuccessfulCreate' });
      const items = list.items as Event[];
      return items.length === 3 ? items : undefined;
    },
    'three SuccessfulCreate events',
    20_000,
  );
  const created = new Set(owned.map((p) => `Created pod: ${p.metadata?.name}`));
  for (const e of events) {
    expect(e.type).toBe('Normal');
    expect(created.has(e.message ?? '')).toBe(true);
    expect(e.source?.component).toBe('replication-controller');
    expect(e.involvedObject).toMatchObject({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'web',
      namespace: 'default',
      uid: rc.metadata?.uid,
    });
  }
});

test('kubectl scale rc changes the number of pods, both ways', async () => {
  await apply('scaled', rcManifest('scaled', 2));
  await running('scaled', 2);
  expect(await cluster.kubectl('scale', 'rc', 'scaled', '--replicas=5')).toContain(
    'replicationcontroller/scaled scaled',
  );
  await running('scaled', 5);
  expect(await activePods('app=scaled')).toHaveLength(5);
  await cluster.kubectl('scale', 'replicationcontroller/scaled', '--replicas=1');
  const rc = await running('scaled', 1);
  expect(rc.spec?.replicas).toBe(1);
  await eventually(
    async () => ((await activePods('app=scaled')).length === 1 ? true : undefined),
    'scaled down to one pod',
    20_000,
  );
  const deleted = await cluster.kubectl(
    'get',
    'events',
    '--field-selector',
    'involvedObject.kind=ReplicationController,involvedObject.name=scaled,reason=SuccessfulDelete',
    '-o',
    'jsonpath={.items[*].message}',
  );
  expect(deleted).toMatch(/^Deleted pod: scaled-[a-z0-9]{5}/);
});

test('a deleted pod is replaced; a matching orphan is adopted and the surplus removed', async () => {
  await apply('keep', rcManifest('keep', 2));
  const rc = await running('keep', 2);
  const [victim] = await activePods('app=keep');
  await cluster.kubectl('delete', 'pod', victim!.metadata!.name!, '--wait=false');
  const replaced = await eventually(
    async () => {
      const now = await activePods('app=keep');
      return now.length === 2 && !now.some((p) => p.metadata?.name === victim!.metadata?.name)
        ? now
        : undefined;
    },
    'a replacement pod',
    20_000,
  );
  expect(replaced.every((p) => p.metadata?.ownerReferences?.[0]?.uid === rc.metadata?.uid)).toBe(true);
  await running('keep', 2);

  // an orphan carrying the selector's labels is adopted; one pod too many is then deleted
  await pods().create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'keep-orphan', namespace: 'default', labels: { app: 'keep', tier: 'web' } },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
  } as Pod);
  await eventually(
    async () => {
      const now = await activePods('app=keep');
      return now.length === 2 && now.every((p) => p.metadata?.ownerReferences?.[0]?.uid === rc.metadata?.uid)
        ? true
        : undefined;
    },
    'two owned pods after adopting the orphan',
    20_000,
  );
  // pods carrying only some of the selector's labels are left alone
  await pods().create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'keep-stranger', namespace: 'default', labels: { app: 'keep' } },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
  } as Pod);
  await running('keep', 2);
  await new Promise((r) => setTimeout(r, 500));
  const stranger = await pods().get('keep-stranger', { namespace: 'default' });
  expect(stranger.metadata?.ownerReferences).toBeUndefined();
  expect(stranger.metadata?.deletionTimestamp).toBeUndefined();
});

test('deleting an RC takes its pods with it; --cascade=orphan leaves them', async () => {
  await apply('gone', rcManifest('gone', 2));
  await running('gone', 2);
  await cluster.kubectl('delete', 'rc', 'gone', '--cascade=orphan');
  await eventually(
    async () => {
      const now = await activePods('app=gone');
      return now.length === 2 && now.every((p) => !p.metadata?.ownerReferences?.length) ? true : undefined;
    },
    'orphaned pods without owner references',
    20_000,
  );
  // a new RC with the same selector adopts them rather than creating more
  await apply('gone', rcManifest('gone', 2));
  const rc = await running('gone', 2);
  const adopted = await activePods('app=gone');
  expect(adopted).toHaveLength(2);
  expect(adopted.every((p) => p.metadata?.ownerReferences?.[0]?.uid === rc.metadata?.uid)).toBe(true);
  await cluster.kubectl('delete', 'rc', 'gone');
  await eventually(
    async () => ((await activePods('app=gone')).length === 0 ? true : undefined),
    'pods deleted with their RC',
    30_000,
  );
});
