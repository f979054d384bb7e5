import { NodeKind, PodKind, type Node, type Pod } from '@orch/api';
import { eventually, startTestAPIServer } from '@orch/apiserver';
import {
  clientFor,
  isNotFound,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
} from '@orch/client';
import {
  CONTROLLER_REGISTRY,
  OUT_OF_SERVICE_TAINT,
  PodGCController,
  TERMINATED_POD_GC_THRESHOLD_FLAG,
} from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';
import { runInProcessManager } from './inProcessManager';

jest.setTimeout(60_000);

const NS = 'default';
const HOLD = 'e2e.orch.io/hold';
const PERIOD_MS = 100;

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({
    // The collector runs every 100 ms instead of 20 s; the 40 s quarantine runs on the driven clock.
    registry: {
      ...CONTROLLER_REGISTRY,
      podgc: { start: (ctx) => new PodGCController(ctx, { periodMs: PERIOD_MS }) },
    },
    number: (flag) => (flag === TERMINATED_POD_GC_THRESHOLD_FLAG ? 3 : undefined),
  });
  // No kubelet: the tests write pod phases themselves.
  cluster.pauseKubelet(true);
});
afterAll(async () => {
  await cluster?.close();
});

const pods = () => clientFor(cluster.rest, PodKind);
const nodes = () => clientFor(cluster.rest, NodeKind);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createPod(
  name: string,
  opts: { node?: string; finalizers?: string[]; restartPolicy?: string } = {},
): Promise<Pod> {
  return pods().create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ...(opts.finalizers ? { finalizers: opts.finalizers } : {}) },
    spec: {
      ...(opts.node ? { nodeName: opts.node } : {}),
      restartPolicy: opts.restartPolicy ?? 'Always',
      containers: [{ name: 'c', image: 'busybox' }],
    },
  } as Pod);
}

async function setPhase(name: string, phase: string): Promise<void> {
  const ready = phase === 'Running' ? 'True' : 'False';
  await pods().patch(
    name,
    'merge',
    { status: { phase, conditions: [{ type: 'Ready', status: ready }] } },
    { namespace: NS, subresource: 'status' },
  );
}

async function createNode(name: string, opts: { ready: boolean; outOfService?: boolean }): Promise<void> {
  await nodes().create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    spec: opts.outOfService
      ? { taints: [{ key: OUT_OF_SERVICE_TAINT, value: 'nodeshutdown', effect: 'NoExecute' }] }
      : {},
  } as Node);
  await nodes().patch(
    name,
    'merge',
    { status: { conditions: [{ type: 'Ready', status: opts.ready ? 'True' : 'False' }] } },
    { subresource: 'status' },
  );
}

async function getPod(name: string): Promise<Pod | undefined> {
  try {
    return await pods().get(name, { namespace: NS });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function release(name: string): Promise<void> {
  await pods().patch(name, 'merge', { metadata: { finalizers: null } }, { namespace: NS });
  await eventually(async () => (await getPod(name)) === undefined, `${name} to go`);
}

async function remove(...names: string[]): Promise<void> {
  for (const name of names) {
    await pods()
      .delete(name, { namespace: NS, gracePeriodSeconds: 0 })
      .catch(() => undefined);
  }
}

test('the threshold flag reaches the collector', () => {
  expect(cluster.manager.controller<PodGCController>('podgc')?.terminatedPodThreshold).toBe(3);
});

test('terminated pods beyond the threshold (3) are force-deleted, oldest first; others are kept', async () => {
  await createPod('running', {});
  await setPhase('running', 'Running');
  await createPod('pending');
  // Created a second apart (creationTimestamp has whole seconds), in reverse name order, so that
  // oldest-first and by-name orders differ.
  const byAge = ['t-e', 't-d', 't-c', 't-b', 't-a'];
  for (const [i, name] of byAge.entries()) {
    if (i > 0) await sleep(1_100);
    await createPod(name, { restartPolicy: 'Never' });
  }
  for (const name of byAge) await setPhase(name, name === 't-d' ? 'Failed' : 'Succeeded');

  await eventually(
    async () => (await getPod('t-e')) === undefined && (await getPod('t-d')) === undefined,
    'the two oldest terminated pods to go',
    10_000,
  );
  // Several collections later, exactly the 3 newest terminated pods remain, and the others.
  await sleep(PERIOD_MS * 8);
  const left = (await pods().list({ namespace: NS })).items.map((p) => p.metadata?.name).sort();
  expect(left).toEqual(['pending', 'running', 't-a', 't-b', 't-c']);
  await remove('t-a', 't-b', 't-c', 'running', 'pending');
});

test('pods on a node that no longer exists are marked Failed (DisruptionTarget) and force-deleted after the 40 s quarantine', async () => {
  await createNode('present', { ready: true });
  await createPod('orphan', { node: 'gone-node', finalizers: [HOLD] });
  await createPod('bound', { node: 'present' });
  await createPod('late', { node: 'late-node' });
  for (const name of ['orphan', 'bound', 'late']) await setPhase(name, 'Running');

  // Seen missing, but within the quarantine: left alone.
  await sleep(PERIOD_MS * 6);
  cluster.advance(20_000);
  await sleep(PERIOD_MS * 6);
  expect((await getPod('orphan'))?.metadata?.deletionTimestamp).toBeUndefined();
  expect((await getPod('orphan'))?.status?.phase).toBe('Running');
  // The late node shows up within its quarantine.
  await createNode('late-node', { ready: true });
  await sleep(PERIOD_MS * 6);

  cluster.advance(21_000);
  const orphan = await eventually(
    async () => {
      const p = await getPod('orphan');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    },
    'the orphaned pod to be deleted',
    10_000,
  );
  expect(orphan.metadata?.deletionGracePeriodSeconds).toBe(0);
  expect(orphan.status?.phase).toBe('Failed');
  const disruption = orphan.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  expect(disruption).toMatchObject({
    status: 'True',
    reason: 'DeletionByPodGC',
    message: 'PodGC: node no longer exists',
  });
  expect(disruption?.lastTransitionTime).toBeDefined();
  // The pod's other conditions are kept.
  expect(orphan.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  await release('orphan');

  // Pods on nodes that exist are untouched, the late one included.
  cluster.advance(60_000);
  await sleep(PERIOD_MS * 8);
  for (const name of ['bound', 'late']) {
    const pod = await getPod(name);
    expect({ name, deleting: pod?.metadata?.deletionTimestamp, phase: pod?.status?.phase }).toEqual({
      name,
      deleting: undefined,
      phase: 'Running',
    });
  }
  await remove('bound', 'late');
});

test('a terminating pod never bound to a node is marked Failed and force-deleted', async () => {
  await createPod('unscheduled', { finalizers: [HOLD] });
  await createPod('unscheduled-alive');
  await pods().delete('unscheduled', { namespace: NS });
  const pod = await eventually(
    async () => {
      const p = await getPod('unscheduled');
      return p?.status?.phase === 'Failed' ? p : undefined;
    },
    'the unscheduled terminating pod to be marked Failed',
    10_000,
  );
  expect((pod.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget')).toBe(false);
  await release('unscheduled');
  // An unscheduled pod that is not being deleted stays as it is.
  expect((await getPod('unscheduled-alive'))?.status?.phase).toBe('Pending');
  await remove('unscheduled-alive');
});

test('a terminating pod on a not-ready node with the out-of-service taint is force-deleted', async () => {
  await createNode('shut-down', { ready: false, outOfService: true });
  await createNode('tainted-but-ready', { ready: true, outOfService: true });
  await createPod('on-shut-down', { node: 'shut-down', finalizers: [HOLD] });
  await createPod('on-ready', { node: 'tainted-but-ready' });
  for (const name of ['on-shut-down', 'on-ready']) {
    await setPhase(name, 'Running');
    // Graceful deletion: 30 s for a kubelet that will not answer.
    await pods().delete(name, { namespace: NS });
  }
  const pod = await eventually(
    async () => {
      const p = await getPod('on-shut-down');
      return p?.metadata?.deletionGracePeriodSeconds === 0 ? p : undefined;
    },
    'the pod on the out-of-service node to be force-deleted',
    10_000,
  );
  expect(pod.status?.phase).toBe('Failed');
  await release('on-shut-down');
  await sleep(PERIOD_MS * 6);
  const other = await getPod('on-ready');
  expect(other?.metadata?.deletionGracePeriodSeconds).toBe(30);
  expect(other?.status?.phase).toBe('Running');
  await remove('on-ready');
});

describe('the controller manager daemon', () => {
  test('--terminated-pod-gc-threshold=1: its first collection leaves only the newest terminated pod', async () => {
    const api = await startTestAPIServer({ admissionPlugins: [] });
    const rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
    const client = clientFor(rest, PodKind);
    try {
      for (const [i, name] of ['older', 'newer'].entries()) {
        if (i > 0) await sleep(1_100);
        await client.create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: NS },
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
        } as Pod);
        await client.patch(
          name,
          'merge',
          { status: { phase: 'Succeeded' } },
          { namespace: NS, subresource: 'status' },
        );
      }
      const daemon = runInProcessManager([
        `--kubeconfig=${api.kubeconfig}`,
        '--controllers=podgc',
        '--terminated-pod-gc-threshold=1',
      ]);
      const names = async (): Promise<string[]> =>
        (await client.list({ namespace: NS })).items.map((p) => p.metadata?.name ?? '');
      await eventually(async () => (await names()).join() === 'newer', 'the older pod to go', 15_000);
      await sleep(500);
      expect(await names()).toEqual(['newer']);
      expect(await daemon.stop()).toBe(0);
    } finally {
      rest.close();
      await api.close();
    }
  });
});
