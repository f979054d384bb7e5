import { DeploymentKind, PodKind, ReplicaSetKind, type Deployment, type Pod } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, SharedInformerFactory, type KubeObject } from '@orch/client';
import { REVISION_ANNOTATION } from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.close();
});

const NS = 'default';

function deployment(
  name: string,
  replicas: number,
  image: string,
  strategy?: Deployment['spec'] extends infer S ? (S extends { strategy?: infer T } ? T : never) : never,
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image }] },
      },
      ...(strategy ? { strategy } : {}),
    },
  } as Deployment;
}

const ready = (p: Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

async function waitRolledOut(name: string, replicas: number): Promise<Deployment> {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  return eventually(
    async () => {
      const d = await deployments.get(name, { namespace: NS });
      const s = d.status ?? {};
      return (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        (s.updatedReplicas ?? 0) === replicas &&
        (s.availableReplicas ?? 0) === replicas &&
        (s.replicas ?? 0) === replicas
        ? d
        : undefined;
    },
    `deployment ${name} to roll out ${replicas} replicas`,
    30_000,
  );
}

test('a Deployment reaches 3 available replicas with revision 1 and kubectl rollout status succeeds', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  await deployments.create(deployment('web', 3, 'nginx:1.19'));
  const d = await waitRolledOut('web', 3);
  expect(d.metadata?.annotations?.[REVISION_ANNOTATION]).toBe('1');
  expect(d.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({
    status: 'True',
    reason: 'MinimumReplicasAvailable',
  });
  expect(d.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
    status: 'True',
    reason: 'NewReplicaSetAvailable',
  });
  const rss = (
    await clientFor(cluster.rest, ReplicaSetKind).list({ namespace: NS, labelSelector: 'app=web' })
  ).items;
  expect(rss).toHaveLength(1);
  const rs = rss[0]!;
  const hash = rs.metadata?.labels?.['pod-template-hash'];
  expect(rs.metadata?.name).toBe(`web-${hash}`);
  expect(rs.spec?.selector?.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
  expect(rs.metadata?.annotations).toMatchObject({
    [REVISION_ANNOTATION]: '1',
    'deployment.kubernetes.io/desired-replicas': '3',
    'deployment.kubernetes.io/max-replicas': '4',
  });
  const out = await cluster.kubectl('rollout', 'status', 'deployment/web', '-n', NS, '--timeout=20s');
  expect(out).toContain('successfully rolled out');
});

test('a template change rolls out within maxSurge/maxUnavailable, observed from the watch; then rollback', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  const replicas = 4;
  await deployments.create(
    deployment('roll', replicas, 'nginx:1.19', {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: 1 },
    }),
  );
  await waitRolledOut('roll', replicas);

  // Watch pods: track every pod's readiness and existence.
  const informers = new SharedInformerFactory(cluster.rest, {});
  const podInformer = informers.informerFor<Pod>({
    group: '',
    version: 'v1',
    resource: 'pods',
    namespaced: true,
  });
  let maxTotal = 0;
  let minAvailable = Infinity;
  const check = (): void => {
    const pods = podInformer
      .lister()
      .namespace(NS)
      .list()
      .filter((p: KubeObject) => (p.metadata?.labels ?? {}).app === 'roll');
    const live = pods.filter((p) => !p.metadata?.deletionTimestamp);
    maxTotal = Math.max(maxTotal, live.length);
    minAvailable = Math.min(minAvailable, live.filter(ready).length);
  };
  podInformer.addEventHandler({ onAdd: check, onUpdate: check, onDelete: check });
  informers.start();
  await informers.waitForCacheSync();

  await deployments.patch(
    'roll',
    'strategic',
    { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.20' }] } } } },
    { namespace: NS },
  );
  const d2 = await eventually(async () => {
    const d = await waitRolledOut('roll', replicas);
    return d.metadata?.annotations?.[REVISION_ANNOTATION] === '2' ? d : undefined;
  });
  expect(d2.spec?.template?.spec?.containers?.[0]?.image).toBe('nginx:1.20');
  await eventually(
    () =>
      podInformer
        .lister()
        .namespace(NS)
        .list()
        .filter((p) => p.metadata?.labels?.app === 'roll').length === replicas,
  );
  await informers.shutdown();
  expect(maxTotal).toBeGreaterThan(replicas);
  expect(maxTotal).toBeLessThanOrEqual(replicas + 1);
  expect(minAvailable).toBeGreaterThanOrEqual(replicas - 1);
  const pods = (await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: 'app=roll' }))
    .items;
  expect(pods.every((p) => p.spec?.containers?.[0]?.image === 'nginx:1.20')).toBe(true);

  // kubectl rollout undo patches the template back; the old ReplicaSet becomes revision 3.
  const rs1 = (
    await clientFor(cluster.rest, ReplicaSetKind).list({ namespace: NS, labelSelector: 'app=roll' })
  ).items.find((rs) => rs.metadata?.annotations?.[REVISION_ANNOTATION] === '1')!;
  await cluster.kubectl('rollout', 'undo', 'deployment/roll', '-n', NS);
  const d3 = await eventually(async () => {
    const d = await waitRolledOut('roll', replicas);
    return d.metadata?.annotations?.[REVISION_ANNOTATION] === '3' ? d : undefined;
  });
  expect(d3.spec?.template?.spec?.containers?.[0]?.image).toBe('nginx:1.19');
  const rss = (
    await clientFor(cluster.rest, ReplicaSetKind).list({ namespace: NS, labelSelector: 'app=roll' })
  ).items;
  expect(rss).toHaveLength(2);
  const reused = rss.find((rs) => rs.metadata?.uid === rs1.metadata?.uid)!;
  expect(reused.metadata?.annotations?.[REVISION_ANNOTATION]).toBe('3');
  expect(reused.metadata?.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
  expect(reused.spec?.replicas).toBe(replicas);
});

test('scale to 0 and back', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  await deployments.create(deployment('scale', 2, 'nginx:1.19'));
  await waitRolledOut('scale', 2);
  await cluster.kubectl('scale', 'deployment/scale', '--replicas=0', '-n', NS);
  await waitRolledOut('scale', 0);
  await eventually(
    async () =>
      (await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: 'app=scale' })).items
        .length === 0,
  );
  await cluster.kubectl('scale', 'deployment/scale', '--replicas=3', '-n', NS);
  await waitRolledOut('scale', 3);
  const rss = (
    await clientFor(cluster.rest, ReplicaSetKind).list({ namespace: NS, labelSelector: 'app=scale' })
  ).items;
  expect(rss).toHaveLength(1);
  expect(rss[0]!.metadata?.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('3');
});

test('Recreate: old pods are gone before new ones start', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  await deployments.create(deployment('recreate', 2, 'nginx:1.19', { type: 'Recreate' }));
  await waitRolledOut('recreate', 2);
  const informers = new SharedInformerFactory(cluster.rest, {});
  const podInformer = informers.informerFor<Pod>({
    group: '',
    version: 'v1',
    resource: 'pods',
    namespaced: true,
  });
  let overlap = false;
  const check = (): void => {
    const images = new Set(
      podInformer
        .lister()
        .namespace(NS)
        .list()
        .filter((p) => p.metadata?.labels?.app === 'recreate' && !p.metadata?.deletionTimestamp)
        .map((p) => p.spec?.containers?.[0]?.image),
    );
    if (images.size > 1) overlap = true;
  };
  podInformer.addEventHandler({ onAdd: check, onUpdate: check, onDelete: check });
  informers.start();
  await informers.waitForCacheSync();
  await deployments.patch(
    'recreate',
    'strategic',
    { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.20' }] } } } },
    { namespace: NS },
  );
  await eventually(async () => {
    const d = await waitRolledOut('recreate', 2);
    return d.metadata?.annotations?.[REVISION_ANNOTATION] === '2' ? d : undefined;
  });
  await informers.shutdown();
  expect(overlap).toBe(false);
});

test('deleting a Deployment garbage-collects its ReplicaSets and Pods', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  await deployments.create(deployment('gc', 2, 'nginx:1.19'));
  await waitRolledOut('gc', 2);
  await deployments.delete('gc', { namespace: NS });
  await eventually(
    async () =>
      (await clientFor(cluster.rest, ReplicaSetKind).list({ namespace: NS, labelSelector: 'app=gc' })).items
        .length === 0,
    'replica sets to go',
    20_000,
  );
  await eventually(
    async () =>
      (await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: 'app=gc' })).items
        .length === 0,
    'pods to go',
    20_000,
  );
});

test('foreground deletion removes pods and ReplicaSets before the Deployment; orphan keeps them', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  const replicaSets = clientFor(cluster.rest, ReplicaSetKind);
  await deployments.create(deployment('fg', 2, 'nginx:1.19'));
  await waitRolledOut('fg', 2);
  await deployments.delete('fg', { namespace: NS, propagationPolicy: 'Foreground' });
  await eventually(
    async () => {
      try {
        await deployments.get('fg', { namespace: NS });
        return false;
      } catch {
        return true;
      }
    },
    'the deployment to go',
    20_000,
  );
  expect((await replicaSets.list({ namespace: NS, labelSelector: 'app=fg' })).items).toHaveLength(0);
  expect(
    (await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: 'app=fg' })).items,
  ).toHaveLength(0);

  await deployments.create(deployment('orphan', 1, 'nginx:1.19'));
  await waitRolledOut('orphan', 1);
  await deployments.delete('orphan', { namespace: NS, propagationPolicy: 'Orphan' });
  const rs = await eventually(
    async () => {
      const list = (await replicaSets.list({ namespace: NS, labelSelector: 'app=orphan' })).items;
      return list.length === 1 && !list[0]!.metadata?.ownerReferences?.length ? list[0] : undefined;
    },
    'the replica set to be orphaned',
    20_000,
  );
  expect(rs.spec?.replicas).toBe(1);
  // the last owner reference removed takes the field with it, as Go's omitempty does
  expect(rs.metadata).not.toHaveProperty('ownerReferences');
  await eventually(async () => {
    try {
      await deployments.get('orphan', { namespace: NS });
      return false;
    } catch {
      return true;
    }
  });
});

test('progressDeadlineSeconds: a stuck rollout gets Progressing=False ProgressDeadlineExceeded', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  cluster.pauseKubelet(true);
  try {
    const d = deployment('stuck', 1, 'nginx:1.19');
    d.spec!.progressDeadlineSeconds = 1;
    await deployments.create(d);
    const timedOut = await eventually(
      async () => {
        const cur = await deployments.get('stuck', { namespace: NS });
        const cond = cur.status?.conditions?.find((c) => c.type === 'Progressing');
        return cond?.reason === 'ProgressDeadlineExceeded' ? cond : undefined;
      },
      'the progress deadline',
      20_000,
    );
    expect(timedOut.status).toBe('False');
    expect(timedOut.message).toMatch(/^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/);
  } finally {
    cluster.pauseKubelet(false);
  }
});

test('a paused deployment does not roll out a template change until resumed', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  const replicaSets = clientFor(cluster.rest, ReplicaSetKind);
  await deployments.create(deployment('paused', 2, 'nginx:1.19'));
  await waitRolledOut('paused', 2);
  await cluster.kubectl('rollout', 'pause', 'deployment/paused', '-n', NS);
  await deployments.patch(
    'paused',
    'strategic',
    { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.20' }] } } } },
    { namespace: NS },
  );
  const cond = await eventually(async () => {
    const cur = await deployments.get('paused', { namespace: NS });
    const c = cur.status?.conditions?.find((x) => x.type === 'Progressing');
    return c?.reason === 'DeploymentPaused' &&
      (cur.status?.observedGeneration ?? 0) >= (cur.metadata?.generation ?? 0)
      ? c
      : undefined;
  });
  expect(cond).toMatchObject({ status: 'Unknown', message: 'Deployment is paused' });
  expect((await replicaSets.list({ namespace: NS, labelSelector: 'app=paused' })).items).toHaveLength(1);
  await cluster.kubectl('rollout', 'resume', 'deployment/paused', '-n', NS);
  const d = await eventually(async () => {
    const cur = await waitRolledOut('paused', 2);
    return cur.metadata?.annotations?.[REVISION_ANNOTATION] === '2' ? cur : undefined;
  });
  expect(d.spec?.template?.spec?.containers?.[0]?.image).toBe('nginx:1.20');
});

test('minReadySeconds: pods count as available only after being ready that long', async () => {
  const deployments = clientFor(cluster.rest, DeploymentKind);
  const d = deployment('minready', 1, 'nginx:1.19');
  d.spec!.minReadySeconds = 2;
  await deployments.create(d);
  await eventually(
    async () => ((await deployments.get('minready', { namespace: NS })).status?.readyReplicas ?? 0) === 1,
  );
  const early = await deployments.get('minready', { namespace: NS });
  expect(early.status?.availableReplicas ?? 0).toBe(0);
  await waitRolledOut('minready', 1);
});
