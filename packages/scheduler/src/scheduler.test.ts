import type { Node, Pod } from '@orch/api';
import type { SharedIndexInformer } from '@orch/client';
import { Registry } from 'prom-client';
import { addAllEventHandlers } from './eventHandlers';
import { Code, Status } from './framework/status';
import type { PermitPlugin, PluginFactory } from './framework/interfaces';
import { NON_PREEMPTING_PRIORITY } from './plugins/defaultpreemption/defaultPreemption';
import { inTreeRegistry } from './plugins/registry';
import { Scheduler, type SchedulerOptions } from './scheduler';
import { makeNode, makePod } from './testing/fixtures';
import { MemoryCluster } from './testing/memoryCluster';

async function until(cond: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('Scheduler with in-memory informers', () => {
  let cluster: MemoryCluster;
  let scheduler: Scheduler;
  let podInformer: SharedIndexInformer<Pod>;
  let nodeInformer: SharedIndexInformer<Node>;
  let metrics: Registry;

  async function start(opts: Partial<SchedulerOptions> = {}): Promise<void> {
    podInformer = cluster.podInformer();
    nodeInformer = cluster.nodeInformer();
    metrics = new Registry();
    const lister = podInformer.lister();
    scheduler = new Scheduler({
      client: cluster,
      profiles: [{ schedulerName: 'default-scheduler' }],
      metrics,
      podLister: (ns, name) => lister.get(`${ns}/${name}`),
      ...opts,
    });
    addAllEventHandlers(scheduler, podInformer, nodeInformer);
    podInformer.run();
    nodeInformer.run();
    await until(() => podInformer.hasSynced() && nodeInformer.hasSynced(), 'sync');
    scheduler.run();
  }

  const nodeOf = (name: string): string | undefined => cluster.pod('default', name)?.spec?.nodeName;

  beforeEach(() => {
    cluster = new MemoryCluster();
    for (const n of ['node-a', 'node-b', 'node-c'])
      cluster.addNode(makeNode(n, { allocatable: { cpu: '2', memory: '4Gi', pods: '110' } }));
  });

  afterEach(async () => {
    await scheduler?.stop();
    await podInformer?.stop();
    await nodeInformer?.stop();
    cluster.close();
  });

  it('binds pods, spreads them by least allocation and records Scheduled events', async () => {
    await start();
    for (let i = 0; i < 6; i++)
      cluster.addPod(makePod(`web-${i}`, { requests: { cpu: '500m', memory: '512Mi' } }));
    await until(() => cluster.bindings.length === 6, 'six bindings');
    const perNode = new Map<string, number>();
    for (const b of cluster.bindings) perNode.set(b.node, (perNode.get(b.node) ?? 0) + 1);
    expect([...perNode.values()]).toEqual([2, 2, 2]);
    expect(cluster.events.filter((e) => e.reason === 'Scheduled').map((e) => e.message)).toContain(
      `Successfully assigned default/web-0 to ${nodeOf('web-0')}`,
    );
    await until(() => scheduler.cache.assumedPodCount() === 0, 'assumed pods confirmed');
    expect(scheduler.cache.nodeInfos().reduce((s, n) => s + n.requested.milliCPU, 0)).toBe(3000);
    const text = await metrics.metrics();
    expect(text).toMatch(
      /scheduler_schedule_attempts_total\{result="scheduled",profile="default-scheduler"\} 6/,
    );
    expect(text).toMatch(/scheduler_pending_pods\{queue="active"\} 0/);
  });

  it('reports an unschedulable pod with the aggregated message and PodScheduled=False', async () => {
    await start();
    cluster.addPod(makePod('huge', { requests: { cpu: '3' } }));
    await until(() => cluster.events.some((e) => e.reason === 'FailedScheduling'), 'FailedScheduling');
    expect(cluster.events.find((e) => e.reason === 'FailedScheduling')).toEqual({
      pod: 'default/huge',
      type: 'Warning',
      reason: 'FailedScheduling',
      message:
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    });
    await until(() => !!cluster.pod('default', 'huge')?.status?.conditions?.length, 'condition');
    expect(cluster.pod('default', 'huge')?.status?.conditions).toEqual([
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message:
          '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
      },
    ]);
    expect(scheduler.queue.pendingPods().unschedulable).toBe(1);
    expect(await metrics.metrics()).toMatch(
      /scheduler_schedule_attempts_total\{result="unschedulable",profile="default-scheduler"\} 1/,
    );

    // A bigger node is a cluster event: the pod is retried (after its backoff) and bound.
    cluster.addNode(makeNode('node-big', { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } }));
    await until(() => nodeOf('huge') === 'node-big', 'bound to node-big', 4000);
  });

  it('aggregates different reasons, sorted', async () => {
    cluster.addNode(
      makeNode('node-a', { allocatable: { cpu: '2', memory: '4Gi', pods: '110' }, unschedulable: true }),
    );
    cluster.addNode(
      makeNode('node-b', {
        allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      }),
    );
    cluster.addPod(makePod('busy', { nodeName: 'node-c', phase: 'Running', requests: { cpu: '1500m' } }));
    await start();
    cluster.addPod(makePod('picky', { requests: { cpu: '1' } }));
    await until(() => cluster.events.some((e) => e.reason === 'FailedScheduling'), 'FailedScheduling');
    expect(cluster.events.find((e) => e.reason === 'FailedScheduling')?.message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate, 1 node(s) were unschedulable. " +
        'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..',
    );
  });

  it('preempts the lowest-priority pods for a higher-priority pod and binds it on the nominated node', async () => {
    cluster.addPod(
      makePod('low', { nodeName: 'node-a', phase: 'Running', priority: 1, requests: { cpu: '2' } }),
    );
    cluster.addPod(
      makePod('mid', { nodeName: 'node-b', phase: 'Running', priority: 5, requests: { cpu: '2' } }),
    );
    cluster.addPod(
      makePod('top', { nodeName: 'node-c', phase: 'Running', priority: 100, requests: { cpu: '2' } }),
    );
    await start({ podInitialBackoffMs: 10, podMaxBackoffMs: 20 });
    const preemptor = cluster.addPod(makePod('important', { priority: 50, requests: { cpu: '2' } }));
    await until(() => nodeOf('important') === 'node-a', 'bound to node-a');
    expect(cluster.deletions).toEqual(['default/low']);
    expect(cluster.pod('default', 'mid')).toBeDefined();
    expect(cluster.events.filter((e) => e.reason === 'Preempted')).toEqual([
      {
        pod: 'default/low',
        type: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${preemptor.metadata!.uid} on node node-a`,
      },
    ]);
    const failed = cluster.events.find(
      (e) => e.reason === 'FailedScheduling' && e.pod === 'default/important',
    );
    expect(failed?.message).toBe('0/3 nodes are available: 3 Insufficient cpu.');
    const text = await metrics.metrics();
    expect(text).toMatch(/scheduler_preemption_attempts_total 1/);
    expect(text).toMatch(/scheduler_preemption_victims_sum 1/);
  });

  it('leaves a pod with preemptionPolicy Never pending (NonPreemptingPriority on)', async () => {
    cluster.addPod(
      makePod('low', { nodeName: 'node-a', phase: 'Running', priority: 1, requests: { cpu: '2' } }),
    );
    await start({ featureEnabled: (name) => name === NON_PREEMPTING_PRIORITY });
    const never = makePod('polite', { priority: 50, requests: { cpu: '3' } });
    never.spec!.preemptionPolicy = 'Never';
    cluster.addPod(never);
    await until(() => cluster.events.some((e) => e.reason === 'FailedScheduling'), 'FailedScheduling');
    expect(cluster.events.find((e) => e.reason === 'FailedScheduling')?.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
    );
    expect(cluster.deletions).toEqual([]);
  });

  it('ignores pods of other schedulers, bound pods and pods being deleted', async () => {
    await start();
    cluster.addPod(makePod('other', { schedulerName: 'my-scheduler' }));
    cluster.addPod(makePod('bound', { nodeName: 'node-a', phase: 'Running' }));
    const deleting = makePod('deleting');
    deleting.metadata!.deletionTimestamp = new Date().toISOString();
    cluster.addPod(deleting);
    cluster.addPod(makePod('mine'));
    await until(() => !!nodeOf('mine'), 'mine bound');
    await new Promise((r) => setTimeout(r, 50));
    expect(cluster.bindings.map((b) => b.pod)).toEqual(['default/mine']);
    expect(nodeOf('other')).toBeUndefined();
    expect(
      scheduler.cache.nodeInfo('node-a')!.pods.size +
        scheduler.cache.nodeInfo('node-b')!.pods.size +
        scheduler.cache.nodeInfo('node-c')!.pods.size,
    ).toBe(2);
  });

  it('schedules higher-priority pods first', async () => {
    cluster.addNode(makeNode('node-b', { unschedulable: true }));
    cluster.addNode(makeNode('node-c', { unschedulable: true }));
    cluster.addNode(makeNode('node-a', { allocatable: { cpu: '1', memory: '4Gi', pods: '110' } }));
    cluster.addPod(makePod('low', { priority: 1, requests: { cpu: '1' } }));
    cluster.addPod(makePod('high', { priority: 1000, requests: { cpu: '1' } }));
    await start();
    await until(() => cluster.events.some((e) => e.reason === 'FailedScheduling'), 'one failure');
    expect(nodeOf('high')).toBe('node-a');
    expect(nodeOf('low')).toBeUndefined();
  });

  it('forgets the assumed pod and requeues it when binding fails', async () => {
    cluster.failBindings = 'connection refused';
    await start();
    cluster.addPod(makePod('p', { requests: { cpu: '1' } }));
    await until(() => cluster.events.some((e) => e.reason === 'FailedScheduling'), 'failure');
    expect(cluster.events[0]!.message).toContain('connection refused');
    await until(() => scheduler.cache.assumedPodCount() === 0, 'forgotten');
    expect(scheduler.cache.nodeInfos().every((n) => n.requested.milliCPU === 0)).toBe(true);
    await until(() => !!cluster.pod('default', 'p')?.status?.conditions?.length, 'condition');
    expect(cluster.pod('default', 'p')?.status?.conditions?.[0]?.reason).toBe('SchedulerError');
    cluster.failBindings = undefined;
    scheduler.queue.moveAllToActiveOrBackoffQueue('ForceActivate');
    await until(() => !!nodeOf('p'), 'bound after retry', 4000);
  });

  it('holds a pod at Permit until a plugin allows it', async () => {
    const permitFactory: PluginFactory = () =>
      ({
        name: 'Gate',
        permit: () => ({ status: new Status(Code.Wait), timeoutMs: 10_000 }),
      }) satisfies PermitPlugin;
    const registry = new Map(inTreeRegistry());
    registry.set('Gate', permitFactory);
    await start({
      registry,
      profiles: [
        { schedulerName: 'default-scheduler', plugins: { permit: { enabled: [{ name: 'Gate' }] } } },
      ],
    });
    cluster.addPod(makePod('gated'));
    const fwk = scheduler.profiles.get('default-scheduler')!;
    await until(() => fwk.getWaitingPod('uid-default-gated') !== undefined, 'waiting pod');
    expect(cluster.bindings).toEqual([]);
    expect(fwk.getWaitingPod('uid-default-gated')!.pendingPlugins()).toEqual(['Gate']);
    fwk.getWaitingPod('uid-default-gated')!.allow('Gate');
    await until(() => !!nodeOf('gated'), 'bound after allow');
  });

  it('fails pods when there are no nodes', async () => {
    cluster = new MemoryCluster();
    await start();
    cluster.addPod(makePod('lonely'));
    await until(() => cluster.events.some((e) => e.reason === 'FailedScheduling'), 'failure');
    expect(cluster.events[0]!.message).toBe('no nodes available to schedule pods');
  });
});
