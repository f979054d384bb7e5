import { EventEmitter } from 'node:events';
import {
  EventKind,
  NodeKind,
  PodKind,
  PriorityClassKind,
  type Node,
  type Pod,
  type PriorityClass,
} from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import { buildConfigFromFlags, clientFor, RestClient } from '@orch/client';
import { daemonValidators, runDaemon } from '@orch/component-base';
import {
  buildSchedulerConfig,
  orchSchedulerFlagSets,
  runScheduler,
  type SchedulerConfiguration,
} from '@orch/scheduler';

// Preemption (DefaultPreemption PostFilter) with a real apiserver (Priority admission resolving
// priorityClassName) and orch-scheduler; the test plays the node agent that finishes deletions.

function node(name: string): Node {
  const resources = { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  } as Node;
}

function pod(name: string, cpu: string, priorityClassName: string, nodeName?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu } } }],
      priorityClassName,
      ...(nodeName ? { nodeName } : {}),
    },
  } as Pod;
}

function priorityClass(name: string, value: number, preemptionPolicy?: string): PriorityClass {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    ...(preemptionPolicy ? { preemptionPolicy } : {}),
  } as PriorityClass;
}

describe('orch-scheduler preemption against a real apiserver', () => {
  let api: TestAPIServer;
  let rest: RestClient;
  let pods: ReturnType<typeof clientFor<typeof PodKind>>;
  let stopScheduler: (() => Promise<number>) | undefined;
  const log: string[] = [];

  beforeAll(async () => {
    api = await startTestAPIServer({ admissionPlugins: ['Priority'] });
    rest = new RestClient(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
    pods = clientFor(rest, PodKind, { namespace: 'default' });
    const classes = clientFor(rest, PriorityClassKind);
    await classes.create(priorityClass('low', 10));
    await classes.create(priorityClass('mid', 20));
    await classes.create(priorityClass('high', 1000));
    await classes.create(priorityClass('high-never', 1000, 'Never'));
    const nodes = clientFor(rest, NodeKind);
    for (const n of ['node-1', 'node-2', 'node-3']) {
      const created = await nodes.create(node(n));
      await nodes.updateStatus({ ...created, status: node(n).status });
    }
    // Full nodes: node-1 two low pods, node-2 one mid pod, node-3 one low pod.
    await pods.create(pod('low-1a', '2', 'low', 'node-1'));
    await pods.create(pod('low-1b', '2', 'low', 'node-1'));
    await pods.create(pod('mid-2', '4', 'mid', 'node-2'));
    await pods.create(pod('low-3', '4', 'low', 'node-3'));

    const signals = new EventEmitter();
    const exited = runDaemon<SchedulerConfiguration>(
      {
        name: 'orch-scheduler',
        flagSets: orchSchedulerFlagSets(),
        validators: daemonValidators('scheduler'),
        buildConfig: (flags) => buildSchedulerConfig(flags),
        run: runScheduler,
      },
      {
        argv: [
          `--kubeconfig=${api.kubeconfig}`,
          '--secure-port=0',
          '--leader-elect=false',
          '--pod-initial-backoff-seconds=1',
          '--pod-max-backoff-seconds=1',
          '-v=2',
        ],
        stdout: { write: () => true },
        stderr: { write: (t: string) => (log.push(t), true) },
        exit: () => undefined,
        signals,
      },
    );
    await eventually(
      async () => (log.some((l) => l.includes('Caches synced')) ? true : undefined),
      'startup',
    );
    stopScheduler = () => {
      signals.emit('SIGTERM');
      return exited;
    };
  });

  afterAll(async () => {
    if (process.env.SCHED_DEBUG) console.log(log.join(''));
    await stopScheduler?.();
    rest?.close();
    await api?.close();
  });

  it('evicts the single lowest-priority victim, nominates its node and binds the preemptor there', async () => {
    const preemptor = await pods.create(pod('important', '4', 'high'));
    expect(preemptor.spec?.priority).toBe(1000);
    // The victim is being deleted (its node agent has the grace period to stop it).
    const victim = await eventually(async () => {
      const p = await pods.get('low-3');
      return p.metadata?.deletionTimestamp ? p : undefined;
    }, 'low-3 terminating');
    // Marked first with the DisruptionTarget condition, as Kubernetes v1.29 (PodDisruptionConditions on).
    expect(victim.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    const nominated = await eventually(async () => {
      const p = await pods.get('important');
      return p.status?.nominatedNodeName;
    }, 'the nominated node');
    expect(nominated).toBe('node-3');
    const events = clientFor(rest, EventKind, { namespace: 'default' });
    const preempted = await eventually(async () => {
      const list = await events.list();
      return list.items.find((e) => e.reason === 'Preempted' && e.involvedObject?.name === 'low-3');
    }, 'a Preempted event');
    expect(preempted.type).toBe('Normal');
    expect(preempted.message).toBe(`Preempted by pod ${preemptor.metadata!.uid} on node node-3`);
    const failed = await eventually(async () => {
      const list = await events.list();
      return list.items.find(
        (e) => e.reason === 'FailedScheduling' && e.involvedObject?.name === 'important',
      );
    }, 'a FailedScheduling event');
    expect(failed.message).toBe('0/3 nodes are available: 3 Insufficient cpu.');
    // Nothing else was touched.
    for (const name of ['low-1a', 'low-1b', 'mid-2'])
      expect((await pods.get(name)).metadata?.deletionTimestamp).toBeUndefined();
    // The preemptor waits for the victim to be gone.
    expect((await pods.get('important')).spec?.nodeName).toBeUndefined();

    // As the node agent: the victim stopped; its deletion completes.
    await pods.delete('low-3', { gracePeriodSeconds: 0 });
    const bound = await eventually(
      async () => (await pods.get('important')).spec?.nodeName,
      'important bound',
    );
    expect(bound).toBe('node-3');
  });

  it('does not preempt for a pod with preemptionPolicy Never', async () => {
    const polite = await pods.create(pod('polite', '4', 'high-never'));
    expect(polite.spec?.preemptionPolicy).toBe('Never');
    const condition = await eventually(async () => {
      const p = await pods.get('polite');
      return p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    }, 'the PodScheduled condition');
    expect(condition).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        '0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
    });
    await new Promise((r) => setTimeout(r, 500));
    const list = await pods.list();
    expect(list.items.filter((p) => p.metadata?.deletionTimestamp).map((p) => p.metadata?.name)).toEqual([]);
    expect((await pods.get('polite')).spec?.nodeName).toBeUndefined();
    expect((await pods.get('polite')).status?.nominatedNodeName).toBeUndefined();
  });
});
