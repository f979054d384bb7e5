import { formatTime, type Pod, type PodDisruptionBudget } from '@orch/api';
import {
  budgetStatus,
  countHealthyPods,
  DELETION_TIMEOUT_MS,
  disruptedPodMap,
  expectedPodCount,
  expectedScale,
  failSafeStatus,
} from './disruptionLogic';

const now = Date.parse('2026-01-01T00:10:00Z');
const pod = (name: string, ready = true, extra: Partial<NonNullable<Pod['metadata']>> = {}): Pod => ({
  metadata: { name, namespace: 'default', ...extra },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const pdb = (
  spec: PodDisruptionBudget['spec'],
  status?: PodDisruptionBudget['status'],
): PodDisruptionBudget => ({
  metadata: { name: 'b', namespace: 'default', generation: 2 },
  spec,
  ...(status ? { status } : {}),
});

describe('the expected and desired healthy counts', () => {
  const pods = [pod('a'), pod('b'), pod('c')];
  const scale = () => ({ expectedCount: 5, unmanagedPods: [] });

  it('take a number minAvailable of the pods there are', () => {
    expect(expectedPodCount(pdb({ minAvailable: 2 }), pods, scale)).toEqual({
      expectedCount: 3,
      desiredHealthy: 2,
      unmanagedPods: [],
    });
  });

  it('take maxUnavailable and a percentage minAvailable of the controllers’ scale, rounding up', () => {
    expect(expectedPodCount(pdb({ maxUnavailable: 1 }), pods, scale)).toMatchObject({
      expectedCount: 5,
      desiredHealthy: 4,
    });
    expect(expectedPodCount(pdb({ maxUnavailable: '50%' }), pods, scale)).toMatchObject({
      desiredHealthy: 2,
    });
    expect(expectedPodCount(pdb({ maxUnavailable: 9 }), pods, scale)).toMatchObject({ desiredHealthy: 0 });
    expect(expectedPodCount(pdb({ minAvailable: '50%' }), pods, scale)).toMatchObject({ desiredHealthy: 3 });
  });

  it('count each controller once, skip pods without one and fail on a controller that cannot be read', () => {
    const byName: Record<string, { uid: string; replicas: number } | 'unmanaged' | undefined> = {
      a: { uid: 'rs-1', replicas: 3 },
      b: { uid: 'rs-1', replicas: 3 },
      c: { uid: 'sts-1', replicas: 2 },
      d: 'unmanaged',
    };
    const of = (p: Pod) => byName[p.metadata!.name!];
    expect(expectedScale([...pods, pod('d')], of)).toEqual({ expectedCount: 5, unmanagedPods: ['d'] });
    expect(() => expectedScale([pod('x')], of)).toThrow('found no controllers for pod "x"');
  });
});

describe('the disrupted pods and the healthy count', () => {
  const evicted = formatTime(now - 60_000);
  const stale = formatTime(now - DELETION_TIMEOUT_MS - 1000);

  it('keep evictions younger than two minutes of pods not yet being deleted, and say when to look again', () => {
    const budget = pdb(
      { minAvailable: 1 },
      { disruptedPods: { a: evicted, b: stale, c: evicted, gone: evicted } },
    );
    const pods = [pod('a'), pod('b'), pod('c', true, { deletionTimestamp: formatTime(now) })];
    const map = disruptedPodMap(budget, pods, now);
    expect(map.disrupted).toEqual({ a: evicted });
    expect(map.recheckAt).toBe(now - 60_000 + DELETION_TIMEOUT_MS);
    expect(map.overdue.map((p) => p.metadata?.name)).toEqual(['b']);
  });

  it('count ready pods neither being deleted nor just evicted', () => {
    const pods = [
      pod('a'),
      pod('b'),
      pod('c', false),
      pod('d', true, { deletionTimestamp: formatTime(now) }),
    ];
    expect(countHealthyPods(pods, { a: evicted })).toBe(1);
    expect(countHealthyPods(pods, {})).toBe(2);
  });
});

describe('the status', () => {
  it('allows the healthy pods beyond the desired ones, with the DisruptionAllowed condition', () => {
    const status = budgetStatus(
      pdb({ minAvailable: 2 }),
      { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3 },
      {},
      now,
    );
    expect(status).toEqual({
      observedGeneration: 2,
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          observedGeneration: 2,
          lastTransitionTime: formatTime(now),
          reason: 'SufficientPods',
          message: '',
        },
      ],
    });
    // the condition's transition time moves only with its status
    const later = budgetStatus(
      pdb({ minAvailable: 2 }, status),
      { currentHealthy: 4, desiredHealthy: 2, expectedCount: 4 },
      {},
      now + 5000,
    );
    expect(later.conditions![0]!.lastTransitionTime).toBe(formatTime(now));
    const none = budgetStatus(
      pdb({ minAvailable: 2 }, status),
      { currentHealthy: 2, desiredHealthy: 2, expectedCount: 3 },
      {},
      now + 5000,
    );
    expect(none.disruptionsAllowed).toBe(0);
    expect(none.conditions![0]).toMatchObject({
      status: 'False',
      reason: 'InsufficientPods',
      lastTransitionTime: formatTime(now + 5000),
    });
  });

  it('allows nothing when no pods are expected, or when the counts cannot be taken', () => {
    expect(
      budgetStatus(
        pdb({ maxUnavailable: 1 }),
        { currentHealthy: 2, desiredHealthy: 0, expectedCount: 0 },
        {},
        now,
      ).disruptionsAllowed,
    ).toBe(0);
    const failed = failSafeStatus(
      pdb({ maxUnavailable: 1 }, { disruptionsAllowed: 3, observedGeneration: 1 }),
      'found no controllers for pod "x"',
      now,
    );
    expect(failed.disruptionsAllowed).toBe(0);
    expect(failed.conditions).toEqual([
      expect.objectContaining({
        status: 'False',
        reason: 'SyncFailed',
        message: 'found no controllers for pod "x"',
      }),
    ]);
  });
});
