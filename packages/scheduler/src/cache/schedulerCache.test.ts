import type { Pod } from '@orch/api';
import { makeNode, makePod } from '../testing/fixtures';
import { SchedulerCache } from './schedulerCache';

function assumed(pod: Pod, nodeName: string): Pod {
  return { ...pod, spec: { ...pod.spec!, nodeName } };
}

describe('SchedulerCache', () => {
  let clock: { t: number };
  let expired: string[];
  let cache: SchedulerCache;

  beforeEach(() => {
    clock = { t: 0 };
    expired = [];
    cache = new SchedulerCache({ now: () => clock.t, onExpire: (p) => expired.push(p.metadata!.name!) });
    cache.addNode(makeNode('n1'));
    cache.addNode(makeNode('n2'));
  });

  it('accounts bound pods on their node', () => {
    cache.addPod(makePod('a', { nodeName: 'n1', requests: { cpu: '500m', memory: '1Gi' } }));
    cache.addPod(makePod('b', { nodeName: 'n1', requests: { cpu: '250m' } }));
    const n1 = cache.nodeInfo('n1')!;
    expect(n1.podCount).toBe(2);
    expect(n1.requested.milliCPU).toBe(750);
    expect(n1.requested.memory).toBe(1024 ** 3);
    // Non-zero requests: b has no memory request, so 200Mi is assumed for scoring.
    expect(n1.nonZeroMemory).toBe(1024 ** 3 + 200 * 1024 ** 2);
    expect(n1.allocatable.milliCPU).toBe(4000);
    cache.removePod(makePod('a', { nodeName: 'n1', requests: { cpu: '500m', memory: '1Gi' } }));
    expect(n1.requested.milliCPU).toBe(250);
  });

  it('lists the nodes running pods with pod affinity and with required anti-affinity', () => {
    const term = { labelSelector: {}, topologyKey: 'kubernetes.io/hostname' };
    const anti = makePod('anti', {
      nodeName: 'n2',
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
    });
    cache.addPod(makePod('plain', { nodeName: 'n1' }));
    expect(cache.nodeInfosWithAffinity()).toEqual([]);
    cache.addPod(anti);
    const names = (list: readonly { name: string }[]) => list.map((n) => n.name);
    expect(names(cache.nodeInfosWithAffinity())).toEqual(['n2']);
    expect(names(cache.nodeInfosWithRequiredAntiAffinity())).toEqual(['n2']);
    // The pod loses its anti-affinity in an update, then moves away when re-added elsewhere.
    const preferred = {
      ...anti,
      spec: {
        ...anti.spec!,
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }],
          },
        },
      },
    };
    cache.updatePod(anti, preferred);
    expect(names(cache.nodeInfosWithAffinity())).toEqual(['n2']);
    expect(cache.nodeInfosWithRequiredAntiAffinity()).toEqual([]);
    cache.removePod(preferred);
    expect(cache.nodeInfosWithAffinity()).toEqual([]);
  });

  it('assumes a pod, then confirms it when the informer sees it bound', () => {
    const pod = makePod('p', { requests: { cpu: '1' } });
    cache.assumePod(assumed(pod, 'n1'));
    expect(cache.isAssumedPod(pod)).toBe(true);
    expect(cache.nodeInfo('n1')!.requested.milliCPU).toBe(1000);
    cache.finishBinding(pod);
    cache.addPod(assumed(pod, 'n1'));
    expect(cache.isAssumedPod(pod)).toBe(false);
    expect(cache.nodeInfo('n1')!.requested.milliCPU).toBe(1000);
    clock.t += 60_000;
    cache.cleanupAssumedPods();
    expect(expired).toEqual([]);
    expect(cache.nodeInfo('n1')!.podCount).toBe(1);
  });

  it('moves a confirmed pod to the node it was really bound to', () => {
    const pod = makePod('p', { requests: { cpu: '1' } });
    cache.assumePod(assumed(pod, 'n1'));
    cache.addPod(assumed(pod, 'n2'));
    expect(cache.nodeInfo('n1')!.podCount).toBe(0);
    expect(cache.nodeInfo('n2')!.requested.milliCPU).toBe(1000);
  });

  it('forgets an assumed pod whose binding failed', () => {
    const pod = makePod('p', { requests: { cpu: '1' } });
    cache.assumePod(assumed(pod, 'n1'));
    cache.forgetPod(pod);
    expect(cache.isAssumedPod(pod)).toBe(false);
    expect(cache.nodeInfo('n1')!.requested.milliCPU).toBe(0);
    expect(() => cache.assumePod(assumed(pod, 'n2'))).not.toThrow();
  });

  it('refuses to assume a pod twice', () => {
    const pod = makePod('p');
    cache.assumePod(assumed(pod, 'n1'));
    expect(() => cache.assumePod(assumed(pod, 'n2'))).toThrow(/can't be assumed/);
  });

  it('expires assumed pods 30 s after binding finished without confirmation', () => {
    const pod = makePod('p', { requests: { cpu: '1' } });
    cache.assumePod(assumed(pod, 'n1'));
    clock.t += 120_000;
    cache.cleanupAssumedPods();
    expect(cache.isAssumedPod(pod)).toBe(true); // binding not finished: never expires
    cache.finishBinding(pod);
    clock.t += 29_999;
    cache.cleanupAssumedPods();
    expect(cache.isAssumedPod(pod)).toBe(true);
    clock.t += 1;
    cache.cleanupAssumedPods();
    expect(cache.isAssumedPod(pod)).toBe(false);
    expect(expired).toEqual(['p']);
    expect(cache.nodeInfo('n1')!.requested.milliCPU).toBe(0);
  });

  it('keeps the pods of a removed node until they go, and lists only existing nodes', () => {
    cache.addPod(makePod('a', { nodeName: 'n2', requests: { cpu: '1' } }));
    cache.removeNode(makeNode('n2'));
    expect(cache.nodeInfos().map((n) => n.name)).toEqual(['n1']);
    cache.addNode(makeNode('n2'));
    expect(cache.nodeInfo('n2')!.requested.milliCPU).toBe(1000);
    expect(cache.nodeInfos().map((n) => n.name)).toEqual(['n1', 'n2']);
  });
});
