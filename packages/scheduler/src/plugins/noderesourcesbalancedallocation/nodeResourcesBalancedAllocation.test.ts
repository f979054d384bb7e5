import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { makeNode, makePod } from '../../testing/fixtures';
import { balancedResourceScore, NodeResourcesBalancedAllocation } from './nodeResourcesBalancedAllocation';

describe('balancedResourceScore', () => {
  it.each([
    // cpu 0.75, memory 0.5 → 1 - 0.25
    [3000, 4000, 5000, 10000, 75],
    [3000, 6000, 5000, 10000, 100],
    [0, 4000, 0, 10000, 100],
    [4000, 4000, 0, 10000, 0],
    [1000, 4000, 12000, 10000, 0],
    [1000, 0, 1000, 10000, 0],
    [1000, 4000, 9000, 10000, 35],
  ])('cpu %d/%d, memory %d/%d → %d', (cpu, cpuCap, mem, memCap, want) => {
    expect(balancedResourceScore(cpu, cpuCap, mem, memCap)).toBe(want);
  });
});

describe('NodeResourcesBalancedAllocation', () => {
  const plugin = new NodeResourcesBalancedAllocation();
  const alloc = { cpu: '4', memory: '10000', pods: '10' };

  it('scores the fractions after placing the pod', () => {
    const info = new NodeInfo(makeNode('n', { allocatable: alloc }));
    expect(
      plugin.score(new CycleState(), makePod('p', { requests: { cpu: '3', memory: '5000' } }), info),
    ).toBe(75);
  });

  it('counts the pods on the node and prefers the node the pod balances', () => {
    const cpuHeavy = new NodeInfo(makeNode('a', { allocatable: alloc }));
    cpuHeavy.addPod(makePod('x', { requests: { cpu: '2', memory: '1000' }, nodeName: 'a' }));
    const memoryHeavy = new NodeInfo(makeNode('b', { allocatable: alloc }));
    memoryHeavy.addPod(makePod('y', { requests: { cpu: '400m', memory: '4000' }, nodeName: 'b' }));
    // A memory-hungry pod balances the cpu-heavy node: 0.6/0.6 → 100 there, 0.2/0.9 → 30 on the other.
    const pod = makePod('p', { requests: { cpu: '400m', memory: '5000' } });
    expect(plugin.score(new CycleState(), pod, cpuHeavy)).toBe(100);
    expect(plugin.score(new CycleState(), pod, memoryHeavy)).toBe(30);
  });

  it('assumes 100m and 200Mi for containers without requests', () => {
    const info = new NodeInfo(makeNode('n', { allocatable: { cpu: '1', memory: '2000Mi', pods: '10' } }));
    // 0.1 cpu, 0.1 memory → perfectly balanced.
    expect(plugin.score(new CycleState(), makePod('p'), info)).toBe(100);
  });
});
