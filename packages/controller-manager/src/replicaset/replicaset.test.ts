import type { Pod, ReplicaSet } from '@orch/api';
import { podsToDelete } from './rankPodsForDeletion';
import { calculateReplicaSetStatus } from './replicaSetStatus';
import { slowStartBatch } from './slowStartBatch';
import { replicaSetPod } from './ReplicaSetController';

function pod(
  name: string,
  opts: {
    node?: string;
    phase?: string;
    ready?: boolean;
    readySince?: string;
    restarts?: number;
    created?: string;
    labels?: Record<string, string>;
  } = {},
): Pod {
  return {
    metadata: {
      name,
      creationTimestamp: opts.created ?? '2024-01-01T00:00:00Z',
      labels: opts.labels ?? { app: 'a' },
    },
    spec: { nodeName: opts.node, containers: [{ name: 'c' }] },
    status: {
      phase: opts.phase ?? 'Running',
      conditions:
        opts.ready === undefined
          ? []
          : [
              {
                type: 'Ready',
                status: opts.ready ? 'True' : 'False',
                lastTransitionTime: opts.readySince ?? '2024-01-01T00:00:00Z',
              },
            ],
      containerStatuses: [{ name: 'c', restartCount: opts.restarts ?? 0 }],
    },
  } as Pod;
}

describe('deletion ranking', () => {
  const names = (pods: Pod[]): string[] => pods.map((p) => p.metadata!.name!);

  test('unscheduled < scheduled, pending < running, not ready < ready', () => {
    const pods = [
      pod('ready', { node: 'n1', ready: true }),
      pod('notready', { node: 'n2', ready: false }),
      pod('pending', { node: 'n3', phase: 'Pending' }),
      pod('unscheduled', { phase: 'Pending' }),
    ];
    expect(names(podsToDelete(pods, pods, 3))).toEqual(['unscheduled', 'pending', 'notready']);
  });

  test('doubled-up pods go first, then shorter readiness, more restarts, newer', () => {
    const a = pod('alone', { node: 'n1', ready: true });
    const b = pod('crowded', { node: 'n2', ready: true });
    const c = pod('crowded2', { node: 'n2', ready: true, readySince: '2023-01-01T00:00:00Z' });
    expect(names(podsToDelete([a, b, c], [a, b, c], 1))).toEqual(['crowded']);
    const young = pod('young', { node: 'x', ready: true, readySince: '2024-06-01T00:00:00Z' });
    const old = pod('old', { node: 'y', ready: true, readySince: '2024-01-01T00:00:00Z' });
    expect(names(podsToDelete([old, young], [old, young], 1))).toEqual(['young']);
    const flaky = pod('flaky', { node: 'x', ready: true, restarts: 3 });
    const steady = pod('steady', { node: 'y', ready: true });
    expect(names(podsToDelete([steady, flaky], [steady, flaky], 1))).toEqual(['flaky']);
    const newer = pod('newer', { node: 'x', ready: true, created: '2024-02-01T00:00:00Z' });
    const older = pod('older', { node: 'y', ready: true });
    expect(names(podsToDelete([older, newer], [older, newer], 1))).toEqual(['newer']);
  });
});

describe('slow start', () => {
  test('batches of 1, 2, 4, ... until done', async () => {
    const batches: number[] = [];
    let inFlight = 0;
    let batchMax = 0;
    const r = await slowStartBatch(10, 1, async () => {
      inFlight++;
      batchMax = Math.max(batchMax, inFlight);
      await new Promise((res) => setImmediate(res));
      inFlight--;
      if (inFlight === 0) {
        batches.push(batchMax);
        batchMax = 0;
      }
    });
    expect(r).toEqual({ successes: 10, error: undefined });
    expect(batches).toEqual([1, 2, 4, 3]);
  });

  test('stops after the first batch with a failure', async () => {
    let calls = 0;
    const r = await slowStartBatch(10, 1, async (i) => {
      calls++;
      if (i === 2) throw new Error('quota');
    });
    expect(calls).toBe(3);
    expect(r.successes).toBe(2);
    expect(String(r.error)).toContain('quota');
  });
});

describe('status', () => {
  const rs = {
    metadata: { name: 'r', generation: 4 },
    spec: {
      replicas: 3,
      minReadySeconds: 10,
      selector: {},
      template: { metadata: { labels: { app: 'a', tier: 'x' } } },
    },
  } as ReplicaSet;
  const now = Date.parse('2024-01-01T00:01:00Z');

  test('counts fully labeled, ready and available (minReadySeconds) pods', () => {
    const pods = [
      pod('a', { ready: true, readySince: '2024-01-01T00:00:00Z', labels: { app: 'a', tier: 'x' } }),
      pod('b', { ready: true, readySince: '2024-01-01T00:00:55Z', labels: { app: 'a', tier: 'x' } }),
      pod('c', { ready: false, labels: { app: 'a' } }),
    ];
    expect(calculateReplicaSetStatus(rs, pods, undefined, now)).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 1,
      observedGeneration: 4,
    });
  });

  test('ReplicaFailure is set on create failures and cleared after', () => {
    const failed = calculateReplicaSetStatus(
      rs,
      [],
      { reason: 'FailedCreate', message: 'pods "r-" is forbidden' },
      now,
    );
    expect(failed.conditions).toEqual([
      {
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
        message: 'pods "r-" is forbidden',
        lastTransitionTime: '2024-01-01T00:01:00Z',
      },
    ]);
    expect(
      calculateReplicaSetStatus({ ...rs, status: failed }, [], undefined, now).conditions,
    ).toBeUndefined();
  });
});

test('pods from the template carry labels and a controller reference', () => {
  const rs = {
    metadata: { name: 'web-abc', namespace: 'ns', uid: 'u1' },
    spec: {
      replicas: 1,
      selector: {},
      template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    },
  } as ReplicaSet;
  expect(replicaSetPod(rs).metadata).toEqual({
    generateName: 'web-abc-',
    namespace: 'ns',
    labels: { app: 'a' },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-abc',
        uid: 'u1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  });
});
