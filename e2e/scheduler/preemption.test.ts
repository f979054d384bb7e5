import { PriorityClassKind, type Pod, type PriorityClass } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, sleep } from '@orch/client';
import { bound, eventAbout, newPod, podScheduled, startSchedulerCluster } from './harness';
import type { SchedulerCluster } from './harness';

// Preemption (DefaultPreemption PostFilter) with a real apiserver (Priority admission resolving
// priorityClassName) and orch-scheduler; the test plays the node agent that finishes deletions.

function pod(name: string, cpu: string, priorityClassName: string, nodeName?: string): Pod {
  return newPod(name, { cpu }, { priorityClassName, ...(nodeName ? { nodeName } : {}) });
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
  let cluster: SchedulerCluster;
  let pods: SchedulerCluster['pods'];

  beforeAll(async () => {
    // NonPreemptingPriority is alpha, off by default: without it preemptionPolicy is dropped and ignored.
    cluster = await startSchedulerCluster({
      admissionPlugins: ['Priority'],
      featureGates: { NonPreemptingPriority: true },
    });
    pods = cluster.pods;
    const classes = clientFor(cluster.rest, PriorityClassKind);
    await classes.create(priorityClass('low', 10));
    await classes.create(priorityClass('mid', 20));
    await classes.create(priorityClass('high', 1000));
    await classes.create(priorityClass('high-never', 1000, 'Never'));
    // Full nodes: node-1 two low pods, node-2 one mid pod, node-3 one low pod.
    await pods.create(pod('low-1a', '2', 'low', 'node-1'));
    await pods.create(pod('low-1b', '2', 'low', 'node-1'));
    await pods.create(pod('mid-2', '4', 'mid', 'node-2'));
    await pods.create(pod('low-3', '4', 'low', 'node-3'));
    await cluster.startScheduler(['--pod-initial-backoff-seconds=1', '--pod-max-backoff-seconds=1']);
  });

  afterAll(async () => {
    await cluster?.close();
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
    const preempted = await eventAbout(cluster, 'Preempted', 'low-3');
    expect(preempted.type).toBe('Normal');
    expect(preempted.message).toBe(`Preempted by pod ${preemptor.metadata!.uid} on node node-3`);
    const failed = await eventAbout(cluster, 'FailedScheduling', 'important');
    expect(failed.message).toBe('0/3 nodes are available: 3 Insufficient cpu.');
    // Nothing else was touched.
    for (const name of ['low-1a', 'low-1b', 'mid-2'])
      expect((await pods.get(name)).metadata?.deletionTimestamp).toBeUndefined();
    // The preemptor waits for the victim to be gone.
    expect((await pods.get('important')).spec?.nodeName).toBeUndefined();

    // As the node agent: the victim stopped; its deletion completes.
    await pods.delete('low-3', { gracePeriodSeconds: 0 });
    expect(await bound(cluster, ['important'])).toEqual(['node-3']);
  });

  it('does not preempt for a pod with preemptionPolicy Never', async () => {
    const polite = await pods.create(pod('polite', '4', 'high-never'));
    expect(polite.spec?.preemptionPolicy).toBe('Never');
    expect(await podScheduled(cluster, 'polite')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        '0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
    });
    await sleep(500);
    const list = await pods.list();
    expect(list.items.filter((p) => p.metadata?.deletionTimestamp).map((p) => p.metadata?.name)).toEqual([]);
    expect((await pods.get('polite')).spec?.nodeName).toBeUndefined();
    expect((await pods.get('polite')).status?.nominatedNodeName).toBeUndefined();
  });
});
