import { resolveDaemonSetFenceposts, resolveFenceposts } from './fenceposts';
import { IntOrStringValue } from './scaledValue';

type V = IntOrStringValue | undefined;

describe('resolveFenceposts (Deployment)', () => {
  // Kubernetes rounds maxSurge up and maxUnavailable down (not up, as spec doc 2 says).
  it.each<[number, number, number]>([
    [1, 1, 0],
    [2, 1, 0],
    [3, 1, 0],
    [4, 1, 1],
    [10, 3, 2],
    [0, 0, 1],
    [100, 25, 25],
  ])('25%%/25%% of %d replicas: surge %d, unavailable %d', (replicas, surge, unavailable) => {
    expect(resolveFenceposts('25%', '25%', replicas)).toEqual({
      maxSurge: surge,
      maxUnavailable: unavailable,
    });
  });

  it.each<[V, V, number, number, number]>([
    // Both resolving to 0 means 1 unavailable, so the rollout can progress.
    [0, '25%', 1, 0, 1],
    ['0%', 0, 10, 0, 1],
    [undefined, undefined, 5, 0, 1],
    [0, 0, 0, 0, 1],
    [2, 3, 10, 2, 3],
    [0, 3, 10, 0, 3],
    [2, 0, 10, 2, 0],
    ['50%', '50%', 3, 2, 1],
    ['100%', '0%', 3, 3, 0],
    [undefined, '30%', 10, 0, 3],
  ])('surge %j, unavailable %j of %d: %d, %d', (surge, unavailable, desired, s, u) => {
    expect(resolveFenceposts(surge, unavailable, desired)).toEqual({ maxSurge: s, maxUnavailable: u });
  });

  it('reports invalid values', () => {
    expect(() => resolveFenceposts('x', 1, 3)).toThrow(
      'invalid value for IntOrString: invalid type: string is not a percentage',
    );
    expect(() => resolveFenceposts(1, 'a%', 3)).toThrow(
      'invalid value for IntOrString: invalid value "a%": strconv.Atoi: parsing "a": invalid syntax',
    );
  });
});

describe('resolveDaemonSetFenceposts', () => {
  // A DaemonSet's maxUnavailable percentage is rounded up.
  it.each<[number, number]>([
    [1, 1],
    [2, 1],
    [3, 1],
    [4, 1],
    [5, 2],
    [10, 3],
  ])('maxUnavailable 25%% of %d nodes is %d', (nodes, unavailable) => {
    expect(resolveDaemonSetFenceposts(0, '25%', nodes)).toEqual({ maxSurge: 0, maxUnavailable: unavailable });
  });

  it.each<[V, V, number, number, number]>([
    [0, 0, 5, 0, 1],
    [undefined, undefined, 5, 0, 1],
    // Nothing to schedule: no default unavailability.
    [0, '25%', 0, 0, 0],
    [0, 0, 0, 0, 0],
    ['10%', 0, 5, 1, 0],
    ['10%', '10%', 5, 1, 1],
    [0, 2, 5, 0, 2],
  ])('surge %j, unavailable %j of %d nodes: %d, %d', (surge, unavailable, nodes, s, u) => {
    expect(resolveDaemonSetFenceposts(surge, unavailable, nodes)).toEqual({ maxSurge: s, maxUnavailable: u });
  });
});
