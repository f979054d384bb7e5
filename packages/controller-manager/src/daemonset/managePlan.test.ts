import { byNode, daemonPod, daemonSet, node } from '../testing/daemonSetFixtures';
import { managePlan } from './managePlan';

const nodes = [node('a'), node('b', { disk: 'ssd' }), node('c')];
const always = (): boolean => true;

describe('managePlan', () => {
  it('puts a pod on every node that should run one and has none', () => {
    const plan = managePlan(daemonSet(), nodes, byNode(daemonPod('pa', 'a')), 'old', false, always);
    expect(plan).toEqual({ nodesNeedingPods: ['b', 'c'], podsToDelete: [] });
  });

  it('removes the pods of nodes the pod may no longer run on', () => {
    const ds = daemonSet();
    ds.spec!.template.spec!.nodeSelector = { disk: 'ssd' };
    const plan = managePlan(
      ds,
      nodes,
      byNode(daemonPod('pa', 'a'), daemonPod('pb', 'b')),
      'old',
      false,
      always,
    );
    expect(plan).toEqual({ nodesNeedingPods: [], podsToDelete: ['pa'] });
  });

  it('keeps the oldest of several running pods on a node', () => {
    const pods = byNode(
      daemonPod('young', 'a', { created: 20 }),
      daemonPod('oldest', 'a', { created: 10 }),
      daemonPod('pb', 'b'),
      daemonPod('pc', 'c'),
    );
    expect(managePlan(daemonSet(), nodes, pods, 'old', false, always).podsToDelete).toEqual(['young']);
  });

  it('removes finished pods, failed ones when the backoff allows; pods being deleted are left alone', () => {
    const pods = byNode(
      daemonPod('failed', 'a', { phase: 'Failed' }),
      daemonPod('done', 'b', { phase: 'Succeeded' }),
      daemonPod('going', 'c', { deleting: true }),
    );
    expect(managePlan(daemonSet(), nodes, pods, 'old', false, always).podsToDelete).toEqual([
      'failed',
      'done',
    ]);
    const backingOff = managePlan(daemonSet(), nodes, pods, 'old', false, () => false);
    expect(backingOff.podsToDelete).toEqual(['done']);
    // the node still holds its pods: no new one until they are gone
    expect(backingOff.nodesNeedingPods).toEqual([]);
  });

  it('removes unbound pods waiting for a node that is gone, not bound ones (the pod GC takes those)', () => {
    const pods = byNode(daemonPod('waiting', 'gone', { bound: false }), daemonPod('bound', 'gone2'));
    const plan = managePlan(daemonSet(), [], pods, 'old', false, always);
    expect(plan.podsToDelete).toEqual(['waiting']);
  });

  describe('while surging', () => {
    it('keeps an old ready pod beside an updated pod that is not ready yet', () => {
      const pods = byNode(
        daemonPod('old', 'a', { created: 1 }),
        daemonPod('new', 'a', { created: 2, hash: 'new', ready: false }),
      );
      expect(managePlan(daemonSet(), [node('a')], pods, 'new', true, always).podsToDelete).toEqual([]);
    });

    it('removes the old pod once the updated one is ready, or when the old one is not ready', () => {
      const ready = byNode(
        daemonPod('old', 'a', { created: 1 }),
        daemonPod('new', 'a', { created: 2, hash: 'new' }),
      );
      expect(managePlan(daemonSet(), [node('a')], ready, 'new', true, always).podsToDelete).toEqual(['old']);
      const oldNotReady = byNode(
        daemonPod('old', 'a', { created: 1, ready: false }),
        daemonPod('new', 'a', { created: 2, hash: 'new', ready: false }),
      );
      expect(managePlan(daemonSet(), [node('a')], oldNotReady, 'new', true, always).podsToDelete).toEqual([
        'old',
      ]);
    });

    it('removes every pod beyond the oldest of each revision, and asks for a pod where none runs', () => {
      const pods = byNode(
        daemonPod('old1', 'a', { created: 1 }),
        daemonPod('old2', 'a', { created: 2 }),
        daemonPod('new1', 'a', { created: 3, hash: 'new', ready: false }),
        daemonPod('new2', 'a', { created: 4, hash: 'new' }),
        daemonPod('failed', 'b', { phase: 'Failed' }),
      );
      const plan = managePlan(daemonSet(), [node('a'), node('b')], pods, 'new', true, always);
      expect(plan.podsToDelete).toEqual(['old2', 'new2', 'failed']);
      expect(plan.nodesNeedingPods).toEqual(['b']);
    });
  });
});
