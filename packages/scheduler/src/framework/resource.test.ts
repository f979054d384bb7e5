import { makeNode, makePod } from '../testing/fixtures';
import { nodeAllocatable, podRequests, resourceFromList } from './resource';

describe('podRequests', () => {
  it('sums containers, raises to the largest init container and adds the overhead (PodOverhead on)', () => {
    const pod = makePod('p', {
      requests: { cpu: '250m', memory: '64Mi', 'example.com/gpu': '1' },
      initRequests: [
        { cpu: '1', memory: '32Mi' },
        { memory: '128Mi', 'example.com/gpu': '2' },
      ],
      overhead: { cpu: '10m', memory: '1Mi' },
    });
    pod.spec!.containers.push({ name: 'b', image: 'x', resources: { requests: { cpu: '250m' } } });
    const r = podRequests(pod, true);
    expect(r.resource.milliCPU).toBe(1010);
    expect(r.resource.memory).toBe(129 * 1024 ** 2);
    expect(r.resource.scalar?.get('example.com/gpu')).toBe(2);
    // Non-zero: container b has no memory request (200Mi assumed): 64Mi + 200Mi > 128Mi.
    expect(r.nonZeroMilliCPU).toBe(1010);
    expect(r.nonZeroMemory).toBe((64 + 200 + 1) * 1024 ** 2);
  });

  it('leaves the overhead out with PodOverhead off, for the same pod object too', () => {
    const pod = makePod('p', {
      requests: { cpu: '250m', memory: '64Mi' },
      overhead: { cpu: '10m', memory: '1Mi' },
    });
    expect(podRequests(pod, true).resource.milliCPU).toBe(260);
    const r = podRequests(pod, false);
    expect(r.resource.milliCPU).toBe(250);
    expect(r.resource.memory).toBe(64 * 1024 ** 2);
    expect(r.nonZeroMilliCPU).toBe(250);
    expect(r.nonZeroMemory).toBe(64 * 1024 ** 2);
    expect(podRequests(pod, true).resource.milliCPU).toBe(260);
  });

  it('assumes Kubernetes defaults for scoring a pod without requests', () => {
    const r = podRequests(makePod('p'), false);
    expect(r.resource.milliCPU).toBe(0);
    expect(r.nonZeroMilliCPU).toBe(100);
    expect(r.nonZeroMemory).toBe(200 * 1024 ** 2);
  });
});

describe('resource lists', () => {
  it('parses quantities like Kubernetes', () => {
    const r = resourceFromList({
      cpu: '1.5',
      memory: '1G',
      'ephemeral-storage': '10Gi',
      pods: 110,
      'hugepages-2Mi': '4Mi',
    });
    expect(r).toMatchObject({
      milliCPU: 1500,
      memory: 1e9,
      ephemeralStorage: 10 * 1024 ** 3,
      allowedPodNumber: 110,
    });
    expect(r.scalar?.get('hugepages-2Mi')).toBe(4 * 1024 ** 2);
  });

  it('falls back to capacity when a node reports no allocatable', () => {
    const node = makeNode('n');
    delete node.status!.allocatable;
    expect(nodeAllocatable(node).milliCPU).toBe(4000);
  });
});
