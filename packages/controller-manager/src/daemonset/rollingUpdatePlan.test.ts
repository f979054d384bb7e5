import { byNode, daemonPod, daemonSet, node } from '../testing/daemonSetFixtures';
import { rollingUpdatePlan, updateBounds } from './rollingUpdatePlan';

const nodes = ['a', 'b', 'c', 'd'].map((n) => node(n));
const now = 1000_000;

function plan(ds: ReturnType<typeof daemonSet>, pods: ReturnType<typeof byNode>, nodeList = nodes) {
  return rollingUpdatePlan(ds, nodeList, pods, 'new', now);
}

describe('updateBounds', () => {
  it('scales percentages of the nodes that should run the pod, rounding up', () => {
    const ds = daemonSet({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '30%', maxSurge: 0 } },
    });
    expect(updateBounds(ds, nodes, new Map())).toEqual({ maxSurge: 0, maxUnavailable: 2, desired: 4 });
  });

  it('allows one unavailable when neither is set', () => {
    const ds = daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: {} } });
    expect(updateBounds(ds, nodes, new Map())).toMatchObject({ maxSurge: 0, maxUnavailable: 1 });
  });
});

describe('rollingUpdatePlan without surge', () => {
  it('stops at most maxUnavailable available old pods', () => {
    const pods = byNode(...['a', 'b', 'c', 'd'].map((n) => daemonPod(`p${n}`, n)));
    expect(plan(daemonSet(), pods).podsToDelete).toHaveLength(1);
    const two = daemonSet({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2, maxSurge: 0 } },
    });
    expect(plan(two, pods).podsToDelete).toHaveLength(2);
  });

  it('counts updated pods not available yet and nodes without a pod as unavailable', () => {
    const waiting = byNode(
      daemonPod('pa', 'a', { hash: 'new', ready: false }),
      daemonPod('pb', 'b'),
      daemonPod('pc', 'c'),
      daemonPod('pd', 'd'),
    );
    expect(plan(daemonSet(), waiting).podsToDelete).toEqual([]);
    const empty = byNode(daemonPod('pb', 'b'), daemonPod('pc', 'c'), daemonPod('pd', 'd'));
    expect(plan(daemonSet(), empty).podsToDelete).toEqual([]);
  });

  it('replaces old pods that are not available at once, whatever the budget', () => {
    const pods = byNode(
      daemonPod('pa', 'a', { ready: false }),
      daemonPod('pb', 'b', { ready: false }),
      daemonPod('pc', 'c', { hash: 'new', ready: false }),
      daemonPod('pd', 'd'),
    );
    expect(plan(daemonSet(), pods).podsToDelete).toEqual(['pa', 'pb']);
  });

  it('waits minReadySeconds before an updated pod counts as available', () => {
    const ds = daemonSet({ minReadySeconds: 30 });
    const pods = byNode(
      daemonPod('pa', 'a', { hash: 'new', created: now / 1000 - 10 }),
      daemonPod('pb', 'b'),
    );
    expect(rollingUpdatePlan(ds, [node('a'), node('b')], pods, 'new', now).podsToDelete).toEqual([]);
    expect(rollingUpdatePlan(ds, [node('a'), node('b')], pods, 'new', now + 30_000).podsToDelete).toEqual([
      'pb',
    ]);
  });
});

describe('rollingUpdatePlan with surge', () => {
  const surge = (maxSurge: number | string) =>
    daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge } } });

  it('makes updated pods beside at most maxSurge old ones, and deletes nothing yet', () => {
    const pods = byNode(...['a', 'b', 'c', 'd'].map((n) => daemonPod(`p${n}`, n)));
    const step = plan(surge(2), pods);
    expect(step.nodesNeedingPods).toHaveLength(2);
    expect(step.podsToDelete).toEqual([]);
  });

  it('removes an old pod once the updated pod beside it is available; surged nodes use the budget', () => {
    const pods = byNode(
      daemonPod('oa', 'a'),
      daemonPod('na', 'a', { hash: 'new' }),
      daemonPod('ob', 'b'),
      daemonPod('nb', 'b', { hash: 'new', ready: false }),
      daemonPod('oc', 'c'),
      daemonPod('od', 'd'),
    );
    expect(plan(surge(1), pods)).toEqual({ podsToDelete: ['oa'], nodesNeedingPods: [] });
    expect(plan(surge(2), pods)).toEqual({ podsToDelete: ['oa'], nodesNeedingPods: ['c'] });
  });

  it('replaces an old pod that is not available at once, beside it', () => {
    const pods = byNode(
      daemonPod('oa', 'a', { ready: false }),
      daemonPod('ob', 'b'),
      daemonPod('oc', 'c'),
      daemonPod('od', 'd'),
    );
    expect(plan(surge(1), pods).nodesNeedingPods).toEqual(['a', 'b']);
  });

  it('keeps an available old pod on a node it should no longer go to while no more pods are available than desired', () => {
    const tainted = node('d', {}, [{ key: 'maintenance', effect: 'NoSchedule' }]);
    const nodeList = [node('a'), node('b'), node('c'), tainted];
    const pods = byNode(
      daemonPod('na', 'a', { hash: 'new' }),
      daemonPod('nb', 'b', { hash: 'new' }),
      daemonPod('nc', 'c', { hash: 'new', ready: false }),
      daemonPod('od', 'd'),
    );
    expect(plan(surge(1), pods, nodeList).podsToDelete).toEqual([]);
    const ready = byNode(
      daemonPod('na', 'a', { hash: 'new' }),
      daemonPod('nb', 'b', { hash: 'new' }),
      daemonPod('nc', 'c', { hash: 'new' }),
      daemonPod('od', 'd'),
    );
    expect(plan(surge(1), ready, nodeList).podsToDelete).toEqual(['od']);
  });
});
