import {
  formatMicroTime,
  formatTime,
  LeaseKind,
  NodeKind,
  PodKind,
  type Lease,
  type Node,
  type Pod,
  type Taint,
  type Toleration,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import { MemoryEventRecorder, newFeatureGates } from '@orch/component-base';
import { NODE_LEASE_NAMESPACE, type NodeLifecycleController } from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(120_000);

const NS = 'default';
const ZONE = { 'topology.kubernetes.io/region': 'r1', 'topology.kubernetes.io/zone': 'z1' };
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const NOT_READY = 'node.kubernetes.io/not-ready';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A test node with its heartbeats, driven by the test instead of a node agent. */
class Nodes {
  private beat = 0;
  private readonly beating = new Map<string, 'status' | 'lease'>();
  private timer: NodeJS.Timeout | undefined;
  /** The round of heartbeats on its way, if any: one at a time. */
  private round: Promise<void> | undefined;

  constructor(private readonly cluster: Cluster) {}

  get nodes() {
    return clientFor(this.cluster.rest, NodeKind);
  }

  conditions(ready: string, extra: Record<string, string> = {}) {
    const hb = formatTime(Date.parse('2024-01-01T00:00:00Z') + ++this.beat * 1000);
    const types: Record<string, string> = {
      MemoryPressure: 'False',
      DiskPressure: 'False',
      PIDPressure: 'False',
      Ready: ready,
      ...extra,
    };
    return Object.entries(types).map(([type, status]) => ({
      type,
      status,
      reason: type === 'Ready' && status === 'True' ? 'KubeletReady' : 'Test',
      message: 'as the test says',
      lastHeartbeatTime: hb,
      lastTransitionTime: '2024-01-01T00:00:00Z',
    }));
  }

  async create(name: string, how: 'status' | 'lease'): Promise<void> {
    await this.nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...ZONE } },
      spec: {},
      status: { conditions: this.conditions('True') },
    } as Node);
    if (how === 'lease') {
      await clientFor(this.cluster.rest, LeaseKind).create({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: NODE_LEASE_NAMESPACE },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: formatMicroTime(Date.now()) },
      } as Lease);
    }
    this.beating.set(name, how);
    this.timer ??= setInterval(() => {
      this.round ??= this.heartbeatAll().finally(() => (this.round = undefined));
    }, 50);
  }

  /** Posts one heartbeat for each beating node: a new Ready heartbeat, or a renewed Lease. */
  private async heartbeatAll(): Promise<void> {
    for (const [name, how] of this.beating) {
      try {
        if (how === 'lease') {
          const leases = clientFor(this.cluster.rest, LeaseKind);
          const lease = await leases.get(name, { namespace: NODE_LEASE_NAMESPACE });
          await leases.update({ ...lease, spec: { ...lease.spec, renewTime: formatMicroTime(Date.now()) } });
        } else {
          await this.setStatus(name, 'True');
        }
      } catch {
        // The next beat tries again.
      }
    }
  }

  async setStatus(name: string, ready: string, extra: Record<string, string> = {}): Promise<void> {
    await this.nodes.patch(
      name,
      'merge',
      { status: { conditions: this.conditions(ready, extra) } },
      { subresource: 'status' },
    );
  }

  /** Stops the node's heartbeats; resolves once none is on its way any more. */
  async stopBeating(name: string): Promise<void> {
    this.beating.delete(name);
    await this.round;
  }

  /**
   * Stops the node's heartbeats and resolves, with the node as last posted, once the node
   * lifecycle controller has seen that last heartbeat: the time the node is silent for is counted
   * on the controller's clock from then, not from a clock step taken before the controller saw it.
   */
  async silence(name: string): Promise<Node> {
    await this.stopBeating(name);
    const node = await this.get(name);
    const last = readyCondition(node)?.lastHeartbeatTime;
    const controller = this.cluster.manager.controller<NodeLifecycleController>('nodelifecycle')!;
    await eventually(
      () =>
        controller.nodeHealth(name)?.status?.conditions?.find((c) => c.type === 'Ready')
          ?.lastHeartbeatTime === last,
      `the last heartbeat of ${name} seen by the controller`,
    );
    return node;
  }

  startBeating(name: string): void {
    this.beating.set(name, 'status');
  }

  close(): void {
    clearInterval(this.timer);
  }

  async get(name: string): Promise<Node> {
    return this.nodes.get(name);
  }
}

const readyCondition = (n: Node) => n.status?.conditions?.find((c) => c.type === 'Ready');

const taintsOf = (n: Node): string[] =>
  (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort((a, b) => a.localeCompare(b));

function pod(name: string, node: string, tolerations: Toleration[] = []): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS },
    spec: { nodeName: node, tolerations, containers: [{ name: 'c', image: 'nginx' }] },
  } as Pod;
}

const tolerate = (key: string, seconds?: number): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
});

async function getPod(cluster: Cluster, name: string): Promise<Pod | undefined> {
  try {
    return await clientFor(cluster.rest, PodKind).get(name, { namespace: NS });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

const going = async (cluster: Cluster, name: string) => {
  const p = await getPod(cluster, name);
  return p === undefined || p.metadata?.deletionTimestamp !== undefined;
};

const readyOf = (p: Pod | undefined) => p?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

/**
 * Moves the controllers' clock by `ms` in steps of `step`, letting the heartbeating nodes be seen
 * between steps (as a real clock would), so that only the silent ones outlive their grace period.
 */
async function advance(cluster: Cluster, ms: number, step = 10_000): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    cluster.advance(Math.min(step, ms - done));
    await sleep(300);
  }
}

describe('node lifecycle with the taint manager', () => {
  let cluster: Cluster;
  let nodes: Nodes;
  const recorder = new MemoryEventRecorder();

  beforeAll(async () => {
    cluster = await startCluster({
      controllers: ['nodelifecycle'],
      recorderFor: () => recorder,
      duration: (flag) => (flag === 'node-monitor-period' ? 100 : undefined),
      // Every zone's nodes tainted at once, so that the test does not wait for the rate.
      number: (flag) => (flag === 'node-eviction-rate' ? 100 : undefined),
    });
    nodes = new Nodes(cluster);
    await nodes.create('alive', 'status');
    await nodes.create('alive-lease', 'lease');
    await nodes.create('silent', 'status');
    await nodes.create('pressured', 'status');
  });
  afterAll(async () => {
    nodes?.close();
    await cluster?.close();
  });

  test('the flags reach the controller', () => {
    const c = cluster.manager.controller<NodeLifecycleController>('nodelifecycle');
    expect(c?.options).toMatchObject({
      nodeMonitorPeriodMs: 100,
      nodeMonitorGracePeriodMs: 40_000,
      nodeEvictionRate: 100,
      enableTaintManager: true,
    });
  });

  test('condition and unschedulable NoSchedule taints follow the node', async () => {
    await nodes.stopBeating('pressured');
    await nodes.setStatus('pressured', 'True', { MemoryPressure: 'True', NetworkUnavailable: 'True' });
    await eventually(
      async () =>
        taintsOf(await nodes.get('pressured')).join() ===
        'node.kubernetes.io/memory-pressure:NoSchedule,node.kubernetes.io/network-unavailable:NoSchedule',
      'pressure taints',
    );
    const added = (await nodes.get('pressured')).spec?.taints?.[0] as Taint;
    expect(added.timeAdded).toBeDefined();
    await nodes.nodes.patch('pressured', 'merge', { spec: { unschedulable: true } });
    await eventually(
      async () =>
        taintsOf(await nodes.get('pressured')).includes('node.kubernetes.io/unschedulable:NoSchedule'),
      'the unschedulable taint',
    );
    await nodes.nodes.patch('pressured', 'merge', { spec: { unschedulable: null } });
    await nodes.setStatus('pressured', 'True');
    nodes.startBeating('pressured');
    await eventually(async () => taintsOf(await nodes.get('pressured')).length === 0, 'taints gone');
  });

  test('a silent node goes Unknown and is tainted; its pods are marked not ready and evicted per their tolerations', async () => {
    const pods = clientFor(cluster.rest, PodKind);
    await pods.create(pod('bare', 'silent'));
    await pods.create(pod('t60', 'silent', [tolerate(UNREACHABLE, 60)]));
    await pods.create(pod('t200', 'silent', [tolerate(UNREACHABLE, 200)]));
    await pods.create(pod('forever', 'silent', [tolerate(UNREACHABLE)]));
    await pods.create(pod('elsewhere', 'alive'));
    await pods.create(pod('elsewhere-lease', 'alive-lease'));
    for (const name of ['bare', 't60', 't200', 'forever', 'elsewhere', 'elsewhere-lease'])
      await eventually(async () => readyOf(await getPod(cluster, name)) === 'True', `${name} running`);

    const before = readyCondition(await nodes.silence('silent'))!;
    await advance(cluster, 30_000);
    expect((await nodes.get('silent')).status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    await advance(cluster, 11_000, 11_000);

    const silent = await eventually(async () => {
      const n = await nodes.get('silent');
      return taintsOf(n).length === 2 ? n : undefined;
    }, 'the silent node tainted');
    expect(taintsOf(silent)).toEqual([`${UNREACHABLE}:NoExecute`, `${UNREACHABLE}:NoSchedule`]);
    expect(silent.spec?.taints?.find((t) => t.effect === 'NoExecute')?.timeAdded).toBeDefined();
    const byType = Object.fromEntries((silent.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(byType.Ready).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: before.lastHeartbeatTime,
    });
    expect(byType.Ready!.lastTransitionTime).not.toBe(before.lastTransitionTime);
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure'])
      expect({ type, status: byType[type]?.status }).toEqual({ type, status: 'Unknown' });
    // The nodes still heartbeating, one through its Ready condition, one through its Lease, are untouched.
    for (const name of ['alive', 'alive-lease']) {
      const n = await nodes.get(name);
      expect({
        name,
        taints: taintsOf(n),
        ready: n.status?.conditions?.find((c) => c.type === 'Ready')?.status,
      }).toEqual({ name, taints: [], ready: 'True' });
    }

    // Pods that do not tolerate the taint go at once, with the DisruptionTarget condition.
    const bare = await eventually(async () => {
      const p = await getPod(cluster, 'bare');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    }, 'the pod without tolerations deleted');
    expect(bare.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
    });
    expect(recorder.events).toContainEqual(
      expect.objectContaining({
        reason: 'TaintManagerEviction',
        message: 'Marking for deletion Pod default/bare',
      }),
    );
    // The others are marked not ready and stay for now.
    for (const name of ['t60', 't200', 'forever']) {
      await eventually(async () => readyOf(await getPod(cluster, name)) === 'False', `${name} not ready`);
      expect({ name, going: await going(cluster, name) }).toEqual({ name, going: false });
    }
    expect(readyOf(await getPod(cluster, 'elsewhere'))).toBe('True');

    // 60 s after the taint: t60 goes, the others stay.
    await advance(cluster, 50_000);
    expect(await going(cluster, 't60')).toBe(false);
    await advance(cluster, 12_000, 12_000);
    await eventually(() => going(cluster, 't60'), 't60 deleted after its 60 s');
    expect(await going(cluster, 't200')).toBe(false);
    expect(await going(cluster, 'forever')).toBe(false);
    expect(await going(cluster, 'elsewhere')).toBe(false);
    expect(await going(cluster, 'elsewhere-lease')).toBe(false);

    // The node comes back before t200's time: its taints go and the deletion is cancelled.
    nodes.startBeating('silent');
    await eventually(
      async () => taintsOf(await nodes.get('silent')).length === 0,
      'the recovered node untainted',
    );
    expect((await nodes.get('silent')).status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    await eventually(
      () =>
        recorder.events.some(
          (e) =>
            e.reason === 'TaintManagerEviction' && e.message === 'Cancelling deletion of Pod default/t200',
        ),
      'the cancelled deletion',
    );
    await advance(cluster, 200_000, 20_000);
    expect(await going(cluster, 't200')).toBe(false);
    expect(await going(cluster, 'forever')).toBe(false);
  });

  test('a node reporting Ready False is tainted not-ready, and unreachable once it goes silent', async () => {
    await nodes.stopBeating('alive');
    await nodes.setStatus('alive', 'False');
    await eventually(
      async () =>
        taintsOf(await nodes.get('alive')).join() === `${NOT_READY}:NoExecute,${NOT_READY}:NoSchedule`,
      'not-ready taints',
    );
    // 'elsewhere' tolerates nothing: gone at once.
    await eventually(() => going(cluster, 'elsewhere'), 'the pod on the not-ready node deleted');
    await advance(cluster, 41_000);
    await eventually(
      async () =>
        taintsOf(await nodes.get('alive')).join() === `${UNREACHABLE}:NoExecute,${UNREACHABLE}:NoSchedule`,
      'the taints swapped to unreachable',
    );
    nodes.startBeating('alive');
    await eventually(async () => taintsOf(await nodes.get('alive')).length === 0, 'untainted again');
  });
});

describe('node lifecycle without the taint manager', () => {
  let cluster: Cluster;
  let nodes: Nodes;

  beforeAll(async () => {
    cluster = await startCluster({
      controllers: ['nodelifecycle'],
      duration: (flag) =>
        flag === 'node-monitor-period' ? 100 : flag === 'pod-eviction-timeout' ? 60_000 : undefined,
      number: (flag) => (flag === 'node-eviction-rate' ? 100 : undefined),
      bool: (flag) => (flag === 'enable-taint-manager' ? false : undefined),
    });
    nodes = new Nodes(cluster);
    await nodes.create('up', 'status');
    await nodes.create('lost', 'status');
  });
  afterAll(async () => {
    nodes?.close();
    await cluster?.close();
  });

  test('pods of a node silent for --pod-eviction-timeout are deleted with reason NodeLost; no NoExecute taint', async () => {
    const pods = clientFor(cluster.rest, PodKind);
    await pods.create(pod('on-lost', 'lost'));
    await pods.create(pod('on-up', 'up'));
    await eventually(async () => readyOf(await getPod(cluster, 'on-lost')) === 'True', 'running');
    await nodes.silence('lost');
    await advance(cluster, 41_000);
    await eventually(async () => readyOf(await getPod(cluster, 'on-lost')) === 'False', 'marked not ready');
    const lost = await nodes.get('lost');
    expect(taintsOf(lost)).toEqual([`${UNREACHABLE}:NoSchedule`]);
    expect(await going(cluster, 'on-lost')).toBe(false);
    await advance(cluster, 61_000);
    const deleted = await eventually(async () => {
      const p = await getPod(cluster, 'on-lost');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    }, 'the pod deleted');
    expect(deleted.status).toMatchObject({
      reason: 'NodeLost',
      message: 'Node lost which was running pod on-lost is unresponsive',
    });
    expect(await going(cluster, 'on-up')).toBe(false);
  });
});

describe('node lifecycle with the TaintBasedEvictions and TaintNodesByCondition gates off', () => {
  let cluster: Cluster;
  let nodes: Nodes;

  beforeAll(async () => {
    cluster = await startCluster({
      controllers: ['nodelifecycle'],
      duration: (flag) =>
        flag === 'node-monitor-period' ? 100 : flag === 'pod-eviction-timeout' ? 60_000 : undefined,
      number: (flag) => (flag === 'node-eviction-rate' ? 100 : undefined),
      featureGates: newFeatureGates({ TaintBasedEvictions: false, TaintNodesByCondition: false }),
    });
    nodes = new Nodes(cluster);
    await nodes.create('up', 'status');
    await nodes.create('lost', 'status');
    await nodes.create('pressured', 'status');
  });
  afterAll(async () => {
    nodes?.close();
    await cluster?.close();
  });

  test('the taint manager runs; the controller neither taints by condition nor evicts by taint', () => {
    const c = cluster.manager.controller<NodeLifecycleController>('nodelifecycle')!;
    expect(c.options.enableTaintManager).toBe(true);
    expect(c.taintManager).toBeDefined();
    expect(c.useTaintBasedEvictions).toBe(false);
    expect(c.taintNodesByCondition).toBe(false);
  });

  test('a node under memory pressure, or unschedulable, gets no NoSchedule taint', async () => {
    await nodes.stopBeating('pressured');
    await nodes.setStatus('pressured', 'True', { MemoryPressure: 'True' });
    await nodes.nodes.patch('pressured', 'merge', { spec: { unschedulable: true } });
    // Many monitoring periods and node syncs.
    await sleep(1500);
    expect(taintsOf(await nodes.get('pressured'))).toEqual([]);
    await nodes.setStatus('pressured', 'True');
    nodes.startBeating('pressured');
  });

  test('pods of a node silent for --pod-eviction-timeout are deleted with reason NodeLost; no taint at all', async () => {
    const pods = clientFor(cluster.rest, PodKind);
    await pods.create(pod('gated-on-lost', 'lost'));
    await pods.create(pod('gated-on-up', 'up'));
    await eventually(async () => readyOf(await getPod(cluster, 'gated-on-lost')) === 'True', 'running');
    await nodes.silence('lost');
    await advance(cluster, 41_000);
    await eventually(
      async () => readyOf(await getPod(cluster, 'gated-on-lost')) === 'False',
      'marked not ready',
    );
    expect(taintsOf(await nodes.get('lost'))).toEqual([]);
    expect(await going(cluster, 'gated-on-lost')).toBe(false);
    await advance(cluster, 61_000);
    const deleted = await eventually(async () => {
      const p = await getPod(cluster, 'gated-on-lost');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    }, 'the pod deleted');
    expect(deleted.status?.reason).toBe('NodeLost');
    expect(taintsOf(await nodes.get('lost'))).toEqual([]);
    expect(await going(cluster, 'gated-on-up')).toBe(false);
  });
});
