import type { Deployment, ReplicaSet } from '@orch/api';
import {
  MAX_REPLICAS_ANNOTATION,
  maxSurge,
  maxUnavailable,
  replicaSetsToCleanup,
  REVISION_ANNOTATION,
} from './deploymentUtil';
import { reconcileOldReplicaSets, rollingUpdateStep, scalePlan } from './rolloutPlan';

function dep(replicas: number, surge: number | string, unavailable: number | string): Deployment {
  return {
    metadata: { name: 'd', namespace: 'ns', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
    },
  } as Deployment;
}

function rs(
  name: string,
  replicas: number,
  available: number,
  created: string,
  annotations: Record<string, string> = {},
): ReplicaSet {
  return {
    metadata: { name, namespace: 'ns', creationTimestamp: created, annotations, generation: 1 },
    spec: { replicas, selector: {}, template: {} },
    status: { replicas: Math.max(replicas, available), availableReplicas: available, observedGeneration: 1 },
  } as ReplicaSet;
}

/**
 * Runs a rollout to the end: each step applies the controller's resizes; when no resize is possible
 * the "kubelet" makes every pod available. Pods of a shrunk set go at once. Returns the states.
 */
function simulate(
  d: Deployment,
  oldReplicas: number,
): { steps: string[]; maxTotal: number; minAvailable: number } {
  let old = rs('old', oldReplicas, oldReplicas, '2024-01-01T00:00:00Z');
  let neu = rs('new', 0, 0, '2024-01-02T00:00:00Z');
  const steps: string[] = [];
  let maxTotal = oldReplicas;
  let minAvailable = oldReplicas;
  for (let i = 0; i < 100; i++) {
    const actions = rollingUpdateStep(neu, [old], d);
    if (actions.length === 0) {
      if (old.spec!.replicas === 0 && neu.status!.availableReplicas === d.spec!.replicas) break;
      neu = rs('new', neu.spec!.replicas!, neu.spec!.replicas!, '2024-01-02T00:00:00Z');
      old = rs('old', old.spec!.replicas!, old.spec!.replicas!, '2024-01-01T00:00:00Z');
      continue;
    }
    for (const a of actions) {
      if (a.rs.metadata?.name === 'new')
        neu = rs(
          'new',
          a.replicas,
          Math.min(a.replicas, neu.status!.availableReplicas!),
          '2024-01-02T00:00:00Z',
        );
      else
        old = rs(
          'old',
          a.replicas,
          Math.min(a.replicas, old.status!.availableReplicas!),
          '2024-01-01T00:00:00Z',
        );
      steps.push(`${a.rs.metadata?.name}=${a.replicas}`);
    }
    maxTotal = Math.max(maxTotal, old.spec!.replicas! + neu.spec!.replicas!);
    minAvailable = Math.min(minAvailable, old.status!.availableReplicas! + neu.status!.availableReplicas!);
  }
  return { steps, maxTotal, minAvailable };
}

describe('maxSurge / maxUnavailable resolution', () => {
  test.each([
    [1, '25%', '25%', 1, 0],
    [3, '25%', '25%', 1, 0],
    [10, '25%', '25%', 3, 2],
    [3, 0, 1, 0, 1],
    [3, 1, 0, 1, 0],
    [3, 0, 0, 0, 1],
    [2, 0, 5, 0, 2],
  ])('%i replicas, surge %s, unavailable %s → %i / %i', (replicas, s, u, surge, unavailable) => {
    const d = dep(replicas, s, u);
    expect(maxSurge(d)).toBe(surge);
    expect(maxUnavailable(d)).toBe(unavailable);
  });
});

describe('rolling update steps', () => {
  test.each([
    [1, '25%', '25%', ['new=1', 'old=0']],
    [3, '25%', '25%', ['new=1', 'old=2', 'new=2', 'old=1', 'new=3', 'old=0']],
    [3, 0, 1, ['old=2', 'new=1', 'old=1', 'new=2', 'old=0', 'new=3']],
    [3, 1, 0, ['new=1', 'old=2', 'new=2', 'old=1', 'new=3', 'old=0']],
    [10, '25%', '25%', ['new=3', 'old=8', 'new=5', 'old=3', 'new=10', 'old=0']],
  ])('%i replicas with maxSurge %s and maxUnavailable %s', (replicas, s, u, expected) => {
    const d = dep(replicas, s, u);
    const { steps, maxTotal, minAvailable } = simulate(d, replicas);
    expect(steps).toEqual(expected);
    expect(maxTotal).toBeLessThanOrEqual(replicas + maxSurge(d));
    expect(minAvailable).toBeGreaterThanOrEqual(replicas - maxUnavailable(d));
  });

  test('unhealthy old replicas are removed first, even below the availability floor', () => {
    const d = dep(3, 1, 1);
    const old = rs('old', 3, 1, '2024-01-01T00:00:00Z');
    const neu = rs('new', 1, 0, '2024-01-02T00:00:00Z');
    // 4 pods, 2 must stay available, the new one is not: one unhealthy old pod may go although
    // only one pod is available.
    expect(reconcileOldReplicaSets([old, neu], [old], neu, d).map((a) => a.replicas)).toEqual([2]);
    // With no room at all (maxUnavailable 0) nothing goes.
    expect(reconcileOldReplicaSets([old, neu], [old], neu, dep(3, 1, 0))).toEqual([]);
  });

  test('the new set shrinks to the desired size first when it is larger', () => {
    const d = dep(2, 1, 0);
    expect(rollingUpdateStep(rs('new', 5, 5, '2024-01-02T00:00:00Z'), [], d)).toEqual([
      expect.objectContaining({ replicas: 2 }),
    ]);
  });
});

describe('scaling events', () => {
  test('a single active set takes the new size', () => {
    const d = dep(5, '25%', '25%');
    expect(
      scalePlan(d, rs('new', 3, 3, '2024-01-02T00:00:00Z'), [rs('old', 0, 0, '2024-01-01T00:00:00Z')]),
    ).toEqual([
      expect.objectContaining({
        replicas: 5,
        rs: expect.objectContaining({ metadata: expect.objectContaining({ name: 'new' }) }),
      }),
    ]);
  });

  test('mid-rollout, the change is spread in proportion (10 → 15 replicas)', () => {
    const d = dep(15, '25%', '25%');
    const old = rs('old', 8, 8, '2024-01-01T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '13' });
    const neu = rs('new', 5, 0, '2024-01-02T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '13' });
    const plan = scalePlan(d, neu, [old]);
    expect(Object.fromEntries(plan.map((a) => [a.rs.metadata?.name, a.replicas]))).toEqual({
      old: 12,
      new: 7,
    });
  });

  test('scaling to 0 empties every active set', () => {
    const d = dep(0, '25%', '25%');
    const old = rs('old', 2, 2, '2024-01-01T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '4' });
    const neu = rs('new', 2, 2, '2024-01-02T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '4' });
    expect(scalePlan(d, neu, [old]).map((a) => a.replicas)).toEqual([0, 0]);
  });
});

describe('revision history cleanup', () => {
  const old = (rev: number, replicas = 0): ReplicaSet => ({
    ...rs(`r${rev}`, replicas, replicas, `2024-01-0${rev}T00:00:00Z`, { [REVISION_ANNOTATION]: String(rev) }),
  });

  test('the lowest revisions beyond the limit go, sets with pods stay', () => {
    const names = replicaSetsToCleanup([old(3), old(1), old(2, 1), old(4)], 1).map((r) => r.metadata?.name);
    expect(names).toEqual(['r1', 'r3']);
  });

  test('limit 0 removes every empty old set; no limit keeps all', () => {
    expect(replicaSetsToCleanup([old(1), old(2)], 0)).toHaveLength(2);
    expect(replicaSetsToCleanup([old(1), old(2)], undefined)).toHaveLength(0);
  });
});
