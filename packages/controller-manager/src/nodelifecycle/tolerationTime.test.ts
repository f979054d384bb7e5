import { formatTime, type Taint, type Toleration } from '@orch/api';
import { evictionTime, matchingTolerations, minTolerationMs } from './tolerationTime';

const T0 = Date.parse('2024-05-01T10:00:00Z');
const unreachable = (timeAdded?: number): Taint => ({
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoExecute',
  ...(timeAdded !== undefined ? { timeAdded: formatTime(timeAdded) } : {}),
});
const notReady = (timeAdded?: number): Taint => ({
  key: 'node.kubernetes.io/not-ready',
  effect: 'NoExecute',
  ...(timeAdded !== undefined ? { timeAdded: formatTime(timeAdded) } : {}),
});
const tolerate = (key: string, seconds?: number): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
});
const never = () => {
  throw new Error('not asked');
};

describe('matchingTolerations and minTolerationMs', () => {
  test('the first tolerating toleration of each taint', () => {
    const a = tolerate('node.kubernetes.io/unreachable', 10);
    const all: Toleration = { operator: 'Exists' };
    expect(matchingTolerations([unreachable(), notReady()], [a, all])).toEqual({
      allTolerated: true,
      used: [a, all],
    });
    expect(matchingTolerations([notReady()], [a])).toEqual({ allTolerated: false, used: [] });
  });

  test('shortest seconds; 0 or below is at once; none at all is for ever', () => {
    expect(minTolerationMs([tolerate('a', 30), tolerate('b', 10)])).toBe(10_000);
    expect(minTolerationMs([tolerate('a', 30), tolerate('b', -1)])).toBe(0);
    expect(minTolerationMs([tolerate('a'), tolerate('b')])).toBe(-1);
    expect(minTolerationMs([])).toBe(0);
  });
});

describe('evictionTime', () => {
  test('no NoExecute taints: never', () => {
    expect(evictionTime([], [], T0, never)).toBeUndefined();
  });

  test('a taint not tolerated: at once', () => {
    expect(evictionTime([unreachable(T0 - 5_000)], [], T0, never)).toEqual({ at: T0 });
    expect(
      evictionTime([unreachable(), notReady()], [tolerate('node.kubernetes.io/unreachable')], T0, never),
    ).toEqual({
      at: T0,
    });
  });

  test('tolerated for ever: never', () => {
    expect(
      evictionTime([unreachable(T0)], [tolerate('node.kubernetes.io/unreachable')], T0, never),
    ).toBeUndefined();
  });

  test('tolerationSeconds after the taint was added', () => {
    expect(
      evictionTime([unreachable(T0 - 100_000)], [tolerate('node.kubernetes.io/unreachable', 300)], T0, never),
    ).toEqual({ at: T0 + 200_000 });
    // The earliest end among the taints.
    expect(
      evictionTime(
        [unreachable(T0), notReady(T0 - 50_000)],
        [tolerate('node.kubernetes.io/unreachable', 300), tolerate('node.kubernetes.io/not-ready', 60)],
        T0,
        never,
      ),
    ).toEqual({ at: T0 + 10_000 });
    // Already over: at a time in the past, i.e. at once.
    expect(
      evictionTime([unreachable(T0 - 400_000)], [tolerate('node.kubernetes.io/unreachable', 300)], T0, never)!
        .at,
    ).toBeLessThanOrEqual(T0);
  });

  test('a taint without timeAdded counts from when it was first seen', () => {
    expect(
      evictionTime([unreachable()], [tolerate('node.kubernetes.io/unreachable', 30)], T0, () => T0 - 10_000),
    ).toEqual({ at: T0 + 20_000 });
  });

  test('tolerationSeconds 0: at once', () => {
    expect(
      evictionTime([unreachable(T0)], [tolerate('node.kubernetes.io/unreachable', 0)], T0, never),
    ).toEqual({
      at: T0,
    });
  });
});
