import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod, type PodFixture } from '../../testing/fixtures';
import { NodeResourcesFit } from './nodeResourcesFit';

/** A node with 2 CPUs, 4Gi, 3 pods and 10 example.com/gpu, running one pod of 1 CPU and 1Gi. */
function busyNode(): NodeInfo {
  const info = new NodeInfo(
    makeNode('n', { allocatable: { cpu: '2', memory: '4Gi', pods: '3', 'example.com/gpu': '10' } }),
  );
  info.addPod(makePod('existing', { requests: { cpu: '1', memory: '1Gi' }, nodeName: 'n' }));
  return info;
}

function reasons(pod: PodFixture, info = busyNode(), podOverhead = false): string[] {
  const plugin = new NodeResourcesFit(undefined, podOverhead);
  const p = makePod('p', pod);
  const state = new CycleState();
  plugin.preFilter(state, p);
  const status = plugin.filter(state, p, info);
  if (status) expect(status.code).toBe(Code.Unschedulable);
  return status ? [...status.reasons] : [];
}

describe('NodeResourcesFit', () => {
  it.each<[string, PodFixture, string[]]>([
    ['fits exactly', { requests: { cpu: '1', memory: '3Gi' } }, []],
    ['no requests', {}, []],
    ['too much cpu', { requests: { cpu: '1001m' } }, ['Insufficient cpu']],
    ['too much memory', { requests: { memory: '3073Mi' } }, ['Insufficient memory']],
    ['both', { requests: { cpu: '2', memory: '4Gi' } }, ['Insufficient cpu', 'Insufficient memory']],
    ['extended resource fits', { requests: { 'example.com/gpu': '10' } }, []],
    [
      'extended resource missing',
      { requests: { 'example.com/gpu': '11' } },
      ['Insufficient example.com/gpu'],
    ],
    [
      'unknown extended resource',
      { requests: { 'example.com/fpga': '1' } },
      ['Insufficient example.com/fpga'],
    ],
    [
      'init container larger than the app containers wins',
      { requests: { cpu: '500m' }, initRequests: [{ cpu: '1500m' }] },
      ['Insufficient cpu'],
    ],
    [
      'init containers are a maximum, not a sum',
      { requests: { cpu: '500m' }, initRequests: [{ cpu: '1' }, { cpu: '1' }] },
      [],
    ],
  ])('%s', (_name, pod, want) => {
    expect(reasons(pod)).toEqual(want);
  });

  it('counts the pod overhead only with the PodOverhead gate on', () => {
    const pod = { requests: { cpu: '900m' }, overhead: { cpu: '200m' } };
    expect(reasons(pod, busyNode(), true)).toEqual(['Insufficient cpu']);
    expect(reasons(pod, busyNode(), false)).toEqual([]);
  });

  it("counts the overhead of the node's pods only with the gate on", () => {
    for (const podOverhead of [true, false]) {
      const info = new NodeInfo(makeNode('n', { allocatable: { cpu: '2', pods: '3' } }), podOverhead);
      info.addPod(makePod('existing', { requests: { cpu: '1' }, overhead: { cpu: '500m' }, nodeName: 'n' }));
      expect(info.requested.milliCPU).toBe(podOverhead ? 1500 : 1000);
      expect(info.clone().requested.milliCPU).toBe(podOverhead ? 1500 : 1000);
      expect(reasons({ requests: { cpu: '900m' } }, info, podOverhead)).toEqual(
        podOverhead ? ['Insufficient cpu'] : [],
      );
    }
  });

  it('reports Too many pods first, when the pod number is reached', () => {
    const info = busyNode();
    info.addPod(makePod('two', { nodeName: 'n' }));
    info.addPod(makePod('three', { nodeName: 'n' }));
    expect(reasons({}, info)).toEqual(['Too many pods']);
    expect(reasons({ requests: { cpu: '2' } }, info)).toEqual(['Too many pods', 'Insufficient cpu']);
  });

  it('frees the resources of removed pods', () => {
    const info = busyNode();
    info.removePod(makePod('existing', { requests: { cpu: '1', memory: '1Gi' }, nodeName: 'n' }));
    expect(reasons({ requests: { cpu: '2', memory: '4Gi' } }, info)).toEqual([]);
  });

  it('skips ignored resources', () => {
    const plugin = new NodeResourcesFit({ ignoredResources: ['example.com/fpga'] });
    const p = makePod('p', { requests: { 'example.com/fpga': '1' } });
    expect(plugin.filter(new CycleState(), p, busyNode())).toBeUndefined();
  });
});
