import type { Pod } from '@orch/api';
import { PrioritySort } from '../plugins/prioritysort/prioritySort';
import { makePod } from '../testing/fixtures';
import { SchedulingQueue } from './schedulingQueue';

const sort = new PrioritySort();

function newQueue(clock: { t: number }): SchedulingQueue {
  return new SchedulingQueue({ less: (a, b) => sort.less(a, b), now: () => clock.t });
}

async function popName(q: SchedulingQueue): Promise<string | undefined> {
  return (await q.pop())?.pod.metadata?.name;
}

describe('SchedulingQueue', () => {
  it('pops by priority, then by queueing time', async () => {
    const clock = { t: 1000 };
    const q = newQueue(clock);
    q.add(makePod('low-early', { priority: 1 }));
    clock.t++;
    q.add(makePod('high', { priority: 100 }));
    clock.t++;
    q.add(makePod('low-late', { priority: 1 }));
    clock.t++;
    q.add(makePod('mid', { priority: 50 }));
    const order = [await popName(q), await popName(q), await popName(q), await popName(q)];
    expect(order).toEqual(['high', 'mid', 'low-early', 'low-late']);
    expect(q.schedulingCycle).toBe(4);
  });

  it('makes pop wait for a pod and resolves undefined once closed', async () => {
    const q = newQueue({ t: 0 });
    const waiting = q.pop();
    q.add(makePod('late'));
    expect((await waiting)?.pod.metadata?.name).toBe('late');
    const pending = q.pop();
    q.close();
    expect(await pending).toBeUndefined();
    expect(await q.pop()).toBeUndefined();
  });

  it('backs off 1s, 2s, 4s, 8s, then 10s per attempt', () => {
    const q = newQueue({ t: 0 });
    const info = { pod: makePod('p'), timestamp: 0, attempts: 0, initialAttemptTimestamp: 0 };
    const durations = [1, 2, 3, 4, 5, 6].map((attempts) => q.backoffDuration({ ...info, attempts }));
    expect(durations).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('keeps a failed pod unschedulable until a cluster event, then activates it once its backoff expired', async () => {
    const clock = { t: 0 };
    const q = newQueue(clock);
    q.add(makePod('p'));
    const info = (await q.pop())!;
    q.addUnschedulableIfNotPresent(info, q.schedulingCycle);
    expect(q.pendingPods()).toEqual({ active: 0, backoff: 0, unschedulable: 1 });
    // Still backing off (1 s after one attempt): the event moves it to the backoff queue.
    clock.t += 500;
    q.moveAllToActiveOrBackoffQueue('NodeAdd');
    expect(q.pendingPods()).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
    q.flushBackoffQCompleted();
    expect(q.pendingPods().backoff).toBe(1);
    clock.t += 600;
    q.flushBackoffQCompleted();
    expect(q.pendingPods()).toEqual({ active: 1, backoff: 0, unschedulable: 0 });
    const again = (await q.pop())!;
    expect(again.attempts).toBe(2);
  });

  it('moves a pod whose backoff already expired straight to the active queue', async () => {
    const clock = { t: 0 };
    const q = newQueue(clock);
    q.add(makePod('p'));
    const info = (await q.pop())!;
    q.addUnschedulableIfNotPresent(info, q.schedulingCycle);
    clock.t += 5000;
    q.moveAllToActiveOrBackoffQueue('NodeAdd');
    expect(q.pendingPods()).toEqual({ active: 1, backoff: 0, unschedulable: 0 });
  });

  it('sends a pod to backoff when a move request arrived during its scheduling cycle', async () => {
    const q = newQueue({ t: 0 });
    q.add(makePod('p'));
    const info = (await q.pop())!;
    const cycle = q.schedulingCycle;
    q.moveAllToActiveOrBackoffQueue('AssignedPodDelete');
    q.addUnschedulableIfNotPresent(info, cycle);
    expect(q.pendingPods()).toEqual({ active: 0, backoff: 1, unschedulable: 0 });
  });

  it('retries pods unschedulable for more than 60 s', async () => {
    const clock = { t: 0 };
    const q = newQueue(clock);
    q.add(makePod('p'));
    q.addUnschedulableIfNotPresent((await q.pop())!, q.schedulingCycle);
    clock.t += 60_000;
    q.flushUnschedulableQLeftover();
    expect(q.pendingPods().unschedulable).toBe(1);
    clock.t += 1;
    q.flushUnschedulableQLeftover();
    expect(q.pendingPods()).toEqual({ active: 1, backoff: 0, unschedulable: 0 });
  });

  it('reactivates an unschedulable pod whose spec changed, but not on a status-only update', async () => {
    const clock = { t: 0 };
    const q = newQueue(clock);
    const pod = makePod('p');
    q.add(pod);
    q.addUnschedulableIfNotPresent((await q.pop())!, q.schedulingCycle);
    clock.t += 2000;
    const statusOnly: Pod = {
      ...pod,
      metadata: { ...pod.metadata, resourceVersion: '7' },
      status: { phase: 'Pending', conditions: [] },
    };
    q.update(pod, statusOnly);
    expect(q.pendingPods().unschedulable).toBe(1);
    const relabeled: Pod = { ...statusOnly, metadata: { ...statusOnly.metadata, labels: { a: 'b' } } };
    q.update(statusOnly, relabeled);
    expect(q.pendingPods()).toEqual({ active: 1, backoff: 0, unschedulable: 0 });
    expect((await q.pop())?.pod.metadata?.labels).toEqual({ a: 'b' });
  });

  it('moves only pods whose required pod affinity matches an assigned pod', async () => {
    const clock = { t: 0 };
    const q = newQueue(clock);
    const withAffinity = makePod('wants-db', {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    });
    q.add(withAffinity);
    q.add(makePod('plain'));
    q.addUnschedulableIfNotPresent((await q.pop())!, q.schedulingCycle);
    q.addUnschedulableIfNotPresent((await q.pop())!, q.schedulingCycle);
    clock.t += 5000;
    q.assignedPodAdded(makePod('web', { labels: { app: 'web' }, nodeName: 'n' }));
    expect(q.pendingPods().unschedulable).toBe(2);
    q.assignedPodAdded(makePod('db', { labels: { app: 'db' }, nodeName: 'n' }));
    expect(q.list().active.map((p) => p.metadata?.name)).toEqual(['wants-db']);
  });

  it('forgets deleted pods and ignores duplicates', async () => {
    const q = newQueue({ t: 0 });
    const pod = makePod('p');
    q.add(pod);
    q.add(pod);
    expect(q.pendingPods().active).toBe(1);
    q.delete(pod);
    expect(q.pendingPods()).toEqual({ active: 0, backoff: 0, unschedulable: 0 });
  });

  it('tracks nominated pods per node', () => {
    const q = newQueue({ t: 0 });
    const pod = makePod('p');
    pod.status = { ...pod.status, nominatedNodeName: 'node-1' };
    q.add(pod);
    expect(q.nominator.nominatedPodsForNode('node-1').map((p) => p.metadata?.name)).toEqual(['p']);
    q.delete(pod);
    expect(q.nominator.nominatedPodsForNode('node-1')).toEqual([]);
  });
});
