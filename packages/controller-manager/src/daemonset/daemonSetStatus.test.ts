import { byNode, daemonPod, daemonSet, node } from '../testing/daemonSetFixtures';
import { daemonSetCounts, statusHolds } from './daemonSetStatus';

describe('daemonSetCounts', () => {
  it('counts desired, scheduled, ready, available, updated and misscheduled nodes', () => {
    const ds = daemonSet({ minReadySeconds: 60 });
    ds.spec!.template.spec!.nodeSelector = { role: 'worker' };
    const worker = (n: string) => node(n, { role: 'worker' });
    const nodes = [worker('a'), worker('b'), worker('c'), worker('d'), node('e')];
    const now = 100_000;
    const pods = byNode(
      daemonPod('pa', 'a', { hash: 'new' }),
      daemonPod('pb', 'b', { created: 90 }), // ready for 10 s of 60
      daemonPod('pc', 'c', { ready: false, hash: 'new' }),
      daemonPod('pe', 'e'),
    );
    expect(daemonSetCounts(ds, nodes, pods, 'new', now)).toEqual({
      desiredNumberScheduled: 4,
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      numberReady: 2,
      numberAvailable: 1,
      numberUnavailable: 3,
      updatedNumberScheduled: 2,
    });
  });

  it('judges a node by its oldest pod', () => {
    const pods = byNode(
      daemonPod('young', 'a', { created: 2, hash: 'new' }),
      daemonPod('old', 'a', { created: 1, ready: false }),
    );
    expect(daemonSetCounts(daemonSet(), [node('a')], pods, 'new', 10_000)).toMatchObject({
      currentNumberScheduled: 1,
      numberReady: 0,
      updatedNumberScheduled: 0,
    });
  });
});

describe('statusHolds', () => {
  const counts = {
    desiredNumberScheduled: 1,
    currentNumberScheduled: 1,
    numberMisscheduled: 0,
    numberReady: 1,
    numberAvailable: 1,
    numberUnavailable: 0,
    updatedNumberScheduled: 1,
  };

  it('holds when every count is written and, when asked, the generation observed', () => {
    const ds = daemonSet();
    ds.status = { ...counts, observedGeneration: 1 };
    expect(statusHolds(ds, counts, true)).toBe(true);
    ds.metadata!.generation = 2;
    expect(statusHolds(ds, counts, true)).toBe(false);
    expect(statusHolds(ds, counts, false)).toBe(true);
    expect(statusHolds(ds, { ...counts, numberReady: 0 }, false)).toBe(false);
  });
});
