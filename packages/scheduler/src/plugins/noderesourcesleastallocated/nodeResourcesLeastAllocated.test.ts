import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { makeNode, makePod } from '../../testing/fixtures';
import { leastRequestedScore, NodeResourcesLeastAllocated } from './nodeResourcesLeastAllocated';

describe('leastRequestedScore', () => {
  it.each([
    [0, 4000, 100],
    [1000, 4000, 75],
    [3000, 4000, 25],
    [4000, 4000, 0],
    [5000, 4000, 0],
    [1, 0, 0],
    [1, 3, 66],
  ])('requested %d of %d → %d', (requested, capacity, want) => {
    expect(leastRequestedScore(requested, capacity)).toBe(want);
  });
});

describe('NodeResourcesLeastAllocated', () => {
  const plugin = new NodeResourcesLeastAllocated();
  const score = (pod: ReturnType<typeof makePod>, info: NodeInfo): number =>
    plugin.score(new CycleState(), pod, info);

  it('averages the cpu and memory scores after placing the pod', () => {
    // Kubernetes' example: node 4000m/10000 with nothing, pod 3000m/5000 → cpu 25, memory 50 → 37.
    const info = new NodeInfo(makeNode('n', { allocatable: { cpu: '4', memory: '10000', pods: '10' } }));
    const pod = makePod('p', { requests: { cpu: '3', memory: '5000' } });
    expect(score(pod, info)).toBe(37);
  });

  it('counts the pods already on the node', () => {
    const info = new NodeInfo(makeNode('n', { allocatable: { cpu: '4', memory: '10000', pods: '10' } }));
    info.addPod(makePod('a', { requests: { cpu: '1', memory: '2500' }, nodeName: 'n' }));
    const pod = makePod('p', { requests: { cpu: '1', memory: '2500' } });
    expect(score(pod, info)).toBe(50);
  });

  it('assumes 100m and 200Mi for containers without requests', () => {
    const info = new NodeInfo(makeNode('n', { allocatable: { cpu: '1', memory: '1000Mi', pods: '10' } }));
    // cpu (1000-100)/1000 → 90; memory (1000-200)/1000 → 80; mean 85.
    expect(score(makePod('p'), info)).toBe(85);
  });

  it('prefers the emptier node', () => {
    const empty = new NodeInfo(makeNode('empty'));
    const busy = new NodeInfo(makeNode('busy'));
    busy.addPod(makePod('x', { requests: { cpu: '2', memory: '4Gi' }, nodeName: 'busy' }));
    const pod = makePod('p', { requests: { cpu: '500m', memory: '512Mi' } });
    expect(score(pod, empty)).toBeGreaterThan(score(pod, busy));
  });

  it('honours configured resource weights', () => {
    const cpuOnly = new NodeResourcesLeastAllocated({ resources: [{ name: 'cpu', weight: 1 }] });
    const info = new NodeInfo(makeNode('n', { allocatable: { cpu: '4', memory: '10000', pods: '10' } }));
    expect(
      cpuOnly.score(new CycleState(), makePod('p', { requests: { cpu: '3', memory: '5000' } }), info),
    ).toBe(25);
  });
});
