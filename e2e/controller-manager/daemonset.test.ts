import {
  CONTROLLER_REVISION_HASH_LABEL,
  ControllerRevisionKind,
  DAEMONSET_TEMPLATE_GENERATION_ANNOTATION,
  DAEMONSET_TEMPLATE_GENERATION_LABEL,
  DaemonSetKind,
  NodeKind,
  PodKind,
  type DaemonSet,
  type Node,
  type Pod,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { startCluster, statusReaching as reaching, type Cluster } from './harness';

jest.setTimeout(90_000);

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
  const nodes = clientFor(cluster.rest, NodeKind);
  for (const name of ['node-1', 'node-2', 'node-3'])
    await nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, role: 'worker' } },
    } as Node);
});
afterAll(async () => {
  await cluster?.close();
});

const NS = 'default';

function daemonSet(
  name: string,
  image: string,
  extra: Partial<NonNullable<DaemonSet['spec']>> = {},
): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: NS },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'agent', image }] },
      },
      ...extra,
    },
  } as DaemonSet;
}

/** The live pods of a DaemonSet, by the node their affinity names. */
async function podsByNode(name: string): Promise<Map<string, Pod>> {
  const list = await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: `app=${name}` });
  const out = new Map<string, Pod>();
  for (const pod of list.items) {
    if (pod.metadata?.deletionTimestamp) continue;
    const term =
      pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0];
    out.set(term?.matchFields?.[0]?.values?.[0] ?? '?', pod);
  }
  return out;
}

/** The DaemonSet once its status reports `expected` for its current generation. */
const statusReaching = (
  name: string,
  expected: Partial<NonNullable<DaemonSet['status']>>,
): Promise<DaemonSet> => reaching(clientFor(cluster.rest, DaemonSetKind), name, expected);

test('a DaemonSet runs one pod per node, rolls an update one node at a time, and rolls back with kubectl', async () => {
  const daemonSets = clientFor(cluster.rest, DaemonSetKind);
  const created = await daemonSets.create(daemonSet('agent', 'agent:1'));
  expect(created.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]).toBe('1');
  expect(created.spec?.updateStrategy).toEqual({
    type: 'RollingUpdate',
    rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
  });
  const ds = await statusReaching('agent', {
    desiredNumberScheduled: 3,
    currentNumberScheduled: 3,
    numberReady: 3,
    numberAvailable: 3,
    updatedNumberScheduled: 3,
    numberMisscheduled: 0,
  });
  expect(ds.status?.numberUnavailable ?? 0).toBe(0);

  const pods = await podsByNode('agent');
  expect([...pods.keys()].sort()).toEqual(['node-1', 'node-2', 'node-3']);
  const revisions = clientFor(cluster.rest, ControllerRevisionKind);
  const history = (await revisions.list({ namespace: NS, labelSelector: 'app=agent' })).items;
  expect(history.map((r) => r.revision)).toEqual([1]);
  const hash = history[0]!.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  expect(history[0]!.metadata?.name).toBe(`agent-${hash}`);
  for (const pod of pods.values()) {
    expect(pod.metadata?.labels).toEqual({
      app: 'agent',
      [CONTROLLER_REVISION_HASH_LABEL]: hash,
      [DAEMONSET_TEMPLATE_GENERATION_LABEL]: '1',
    });
    expect(pod.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'DaemonSet', name: 'agent', controller: true }),
    ]);
    expect(pod.spec?.tolerations).toEqual(
      expect.arrayContaining([
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      ]),
    );
  }

  // an update: at most one node (maxUnavailable 1) without a ready pod at any time
  const samples: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const live = [...(await podsByNode('agent')).values()];
      samples.push(
        live.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .length,
      );
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await cluster.kubectl('set', 'image', 'daemonset/agent', 'agent=agent:2');
  const rolled = await cluster.kubectl('rollout', 'status', 'daemonset/agent', '--timeout=60s');
  sampling = false;
  await sampler;
  expect(rolled).toContain('daemon set "agent" successfully rolled out');
  expect(Math.min(...samples)).toBeGreaterThanOrEqual(2);
  const updated = await daemonSets.get('agent', { namespace: NS });
  expect(updated.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]).toBe('2');
  const images = [...(await podsByNode('agent')).values()].map((p) => p.spec?.containers[0]?.image);
  expect(images).toEqual(['agent:2', 'agent:2', 'agent:2']);
  expect(
    (await revisions.list({ namespace: NS, labelSelector: 'app=agent' })).items.map((r) => r.revision).sort(),
  ).toEqual([1, 2]);

  const listed = await cluster.kubectl('rollout', 'history', 'daemonset/agent');
  expect(listed).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
  const shown = await cluster.kubectl('rollout', 'history', 'daemonset/agent', '--revision=1');
  expect(shown).toContain('Image:\tagent:1');

  // undo goes back to revision 1's template, which becomes revision 3
  expect(await cluster.kubectl('rollout', 'undo', 'daemonset/agent')).toContain(
    'daemonset.apps/agent rolled back',
  );
  await cluster.kubectl('rollout', 'status', 'daemonset/agent', '--timeout=60s');
  const back = [...(await podsByNode('agent')).values()];
  expect(back.map((p) => p.spec?.containers[0]?.image)).toEqual(['agent:1', 'agent:1', 'agent:1']);
  expect(back.map((p) => p.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL])).toEqual([hash, hash, hash]);
  const renumbered = (await revisions.list({ namespace: NS, labelSelector: 'app=agent' })).items;
  expect(
    renumbered.map((r) => [r.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash, r.revision]).sort(),
  ).toEqual([
    [false, 2],
    [true, 3],
  ]);
});

test('pods follow the nodes: selector, node added and removed, a taint, a failed pod replaced', async () => {
  const nodes = clientFor(cluster.rest, NodeKind);
  const pods = clientFor(cluster.rest, PodKind);
  const daemonSets = clientFor(cluster.rest, DaemonSetKind);
  const ds = daemonSet('picky', 'agent:1');
  ds.spec!.template.spec!.nodeSelector = { disk: 'ssd' };
  await daemonSets.create(ds);
  await statusReaching('picky', { desiredNumberScheduled: 0, currentNumberScheduled: 0 });
  expect((await podsByNode('picky')).size).toBe(0);

  await nodes.patch('node-2', 'merge', { metadata: { labels: { disk: 'ssd' } } });
  await statusReaching('picky', { desiredNumberScheduled: 1, numberReady: 1 });
  expect([...(await podsByNode('picky')).keys()]).toEqual(['node-2']);

  await nodes.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-4', labels: { disk: 'ssd' } },
  } as Node);
  await statusReaching('picky', { desiredNumberScheduled: 2, numberReady: 2 });
  expect([...(await podsByNode('picky')).keys()].sort()).toEqual(['node-2', 'node-4']);

  // a NoExecute taint the pod does not tolerate: the pod goes
  await nodes.patch('node-4', 'merge', { spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } });
  await statusReaching('picky', { desiredNumberScheduled: 1, currentNumberScheduled: 1 });
  await eventually(async () => !(await podsByNode('picky')).has('node-4'), 'the pod off node-4', 30_000);

  // a failed pod is deleted and replaced
  const failed = (await podsByNode('picky')).get('node-2')!;
  cluster.pauseKubelet(true);
  await pods.patch(
    failed.metadata!.name!,
    'merge',
    { status: { phase: 'Failed' } },
    { namespace: NS, subresource: 'status' },
  );
  const replacement = await eventually(
    async () => {
      const pod = (await podsByNode('picky')).get('node-2');
      return pod && pod.metadata?.name !== failed.metadata?.name ? pod : undefined;
    },
    'a replacement pod on node-2',
    30_000,
  );
  cluster.pauseKubelet(false);
  expect(replacement.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL]).toBe(
    failed.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL],
  );

  // the label goes: so does the pod
  await nodes.patch('node-2', 'merge', { metadata: { labels: { disk: null } } });
  await statusReaching('picky', {
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
  });
  await eventually(async () => (await podsByNode('picky')).size === 0, 'no picky pods', 30_000);
});

test('a surge update starts the updated pod beside the old one and removes the old one once it is ready', async () => {
  const daemonSets = clientFor(cluster.rest, DaemonSetKind);
  await daemonSets.create(
    daemonSet('surge', 'agent:1', {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
    }),
  );
  await statusReaching('surge', { desiredNumberScheduled: 3, numberAvailable: 3 });
  cluster.pauseKubelet(true);
  await daemonSets.patch(
    'surge',
    'strategic',
    {
      spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } },
    },
    { namespace: NS },
  );
  // one node surges: two pods there, the updated one pending, none removed
  const both = await eventually(
    async () => {
      const list = await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: 'app=surge' });
      return list.items.length === 4 ? list.items : undefined;
    },
    'a fourth pod',
    30_000,
  );
  await new Promise((r) => setTimeout(r, 1000));
  const still = await clientFor(cluster.rest, PodKind).list({ namespace: NS, labelSelector: 'app=surge' });
  expect(still.items).toHaveLength(4);
  expect(both.filter((p) => p.spec?.containers[0]?.image === 'agent:2')).toHaveLength(1);
  cluster.pauseKubelet(false);
  await cluster.kubectl('rollout', 'status', 'daemonset/surge', '--timeout=60s');
  const images = [...(await podsByNode('surge')).values()].map((p) => p.spec?.containers[0]?.image);
  expect(images).toEqual(['agent:2', 'agent:2', 'agent:2']);
});

test('a revision name taken by another template is a hash collision: collisionCount goes up and names it anew', async () => {
  const daemonSets = clientFor(cluster.rest, DaemonSetKind);
  const revisions = clientFor(cluster.rest, ControllerRevisionKind);
  await daemonSets.create(daemonSet('clash', 'agent:1'));
  const first = await eventually(
    async () => (await revisions.list({ namespace: NS, labelSelector: 'app=clash' })).items[0],
    'the first revision',
    30_000,
  );
  const name = first.metadata!.name!;
  await daemonSets.delete('clash', { namespace: NS, propagationPolicy: 'Foreground' });
  await eventually(
    async () =>
      (await revisions.list({ namespace: NS, labelSelector: 'app=clash' })).items.length === 0 &&
      (await podsByNode('clash')).size === 0,
    'the history and pods gone',
    30_000,
  );
  // the same name, holding something else and not selected by the DaemonSet
  await revisions.create({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name, namespace: NS, labels: { app: 'other' } },
    data: { spec: { template: { $patch: 'replace' } } },
    revision: 1,
  } as never);

  await daemonSets.create(daemonSet('clash', 'agent:1'));
  const ds = await statusReaching('clash', {
    desiredNumberScheduled: 3,
    updatedNumberScheduled: 3,
    numberReady: 3,
  });
  expect(ds.status?.collisionCount).toBe(1);
  const history = (await revisions.list({ namespace: NS, labelSelector: 'app=clash' })).items;
  expect(history).toHaveLength(1);
  expect(history[0]!.metadata?.name).not.toBe(name);
  const hash = history[0]!.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  expect(history[0]!.metadata?.name).toBe(`clash-${hash}`);
  for (const pod of (await podsByNode('clash')).values())
    expect(pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL]).toBe(hash);
  // the other revision is left alone
  expect((await revisions.get(name, { namespace: NS })).metadata?.ownerReferences).toBeUndefined();
});
