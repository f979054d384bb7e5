import type { Pod } from '@orch/api';
import { makeNode, makePod } from '../testing/fixtures';
import { NodeInfo } from './nodeInfo';

const term = { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' };

function withPort(pod: Pod, hostPort: number): Pod {
  pod.spec!.containers[0]!.ports = [{ containerPort: 80, hostPort }];
  return pod;
}

describe('NodeInfo', () => {
  it('keeps the pods with pod affinity and with required anti-affinity apart', () => {
    const info = new NodeInfo(makeNode('n'));
    const plain = makePod('plain', { nodeName: 'n' });
    const preferred = makePod('preferred', {
      nodeName: 'n',
      affinity: {
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }],
        },
      },
    });
    const anti = makePod('anti', {
      nodeName: 'n',
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
    });
    const nodeAffinityOnly = makePod('node-affinity', {
      nodeName: 'n',
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
    });
    for (const p of [plain, preferred, anti, nodeAffinityOnly]) info.addPod(p);
    expect([...info.podsWithAffinity.values()].map((p) => p.metadata?.name)).toEqual(['preferred', 'anti']);
    expect([...info.podsWithRequiredAntiAffinity.values()].map((p) => p.metadata?.name)).toEqual(['anti']);

    // An update without the affinity drops the pod from the lists.
    const updated = makePod('anti', { nodeName: 'n' });
    info.addPod(updated);
    expect(info.podsWithRequiredAntiAffinity.size).toBe(0);
    info.removePod(preferred);
    expect(info.podsWithAffinity.size).toBe(0);
    expect(info.pods.size).toBe(3);
  });

  it('tracks used host ports through adds, updates and removals', () => {
    const info = new NodeInfo(makeNode('n'));
    const pod = withPort(makePod('a', { nodeName: 'n' }), 8080);
    info.addPod(pod);
    expect(info.usedPorts.conflicts({ ip: '0.0.0.0', protocol: 'TCP', port: 8080 })).toBe(true);
    info.addPod(withPort(makePod('a', { nodeName: 'n' }), 9090));
    expect(info.usedPorts.conflicts({ ip: '0.0.0.0', protocol: 'TCP', port: 8080 })).toBe(false);
    expect(info.usedPorts.conflicts({ ip: '10.1.1.1', protocol: 'TCP', port: 9090 })).toBe(true);
    info.removePod(pod);
    expect(info.usedPorts.size).toBe(0);
  });
});
