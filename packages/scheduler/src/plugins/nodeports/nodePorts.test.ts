import type { Pod } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { ERR_REASON_NODE_PORTS, NodePorts } from './nodePorts';

interface PortFixture {
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

function podWithPorts(name: string, ports: PortFixture[], nodeName?: string): Pod {
  const pod = makePod(name, nodeName ? { nodeName } : {});
  pod.spec!.containers[0]!.ports = ports.map((p, i) => ({ containerPort: 8000 + i, ...p }));
  return pod;
}

function filter(pod: Pod, info: NodeInfo): boolean {
  const plugin = new NodePorts();
  const state = new CycleState();
  plugin.preFilter(state, pod);
  const status = plugin.filter(state, pod, info);
  if (status) {
    expect(status.code).toBe(Code.Unschedulable);
    expect(status.reasons).toEqual([ERR_REASON_NODE_PORTS]);
  }
  return status === undefined;
}

function nodeWith(...ports: PortFixture[][]): NodeInfo {
  const info = new NodeInfo(makeNode('n'));
  ports.forEach((p, i) => info.addPod(podWithPorts(`existing-${i}`, p, 'n')));
  return info;
}

describe('NodePorts', () => {
  it.each<[string, PortFixture[], PortFixture[], boolean]>([
    ['no host ports asked for', [{ hostPort: 80 }], [{}], true],
    ['a free port', [{ hostPort: 80 }], [{ hostPort: 8080 }], true],
    [
      'the same port, protocol TCP by default',
      [{ hostPort: 80 }],
      [{ hostPort: 80, protocol: 'TCP' }],
      false,
    ],
    ['the same port on another protocol', [{ hostPort: 53, protocol: 'UDP' }], [{ hostPort: 53 }], true],
    ['the same port on UDP', [{ hostPort: 53, protocol: 'UDP' }], [{ hostPort: 53, protocol: 'UDP' }], false],
    [
      'the same port on other IPs',
      [{ hostPort: 80, hostIP: '10.0.0.1' }],
      [{ hostPort: 80, hostIP: '10.0.0.2' }],
      true,
    ],
    [
      'the same port and IP',
      [{ hostPort: 80, hostIP: '10.0.0.1' }],
      [{ hostPort: 80, hostIP: '10.0.0.1' }],
      false,
    ],
    [
      '0.0.0.0 asked, a specific IP taken',
      [{ hostPort: 80, hostIP: '10.0.0.1' }],
      [{ hostPort: 80, hostIP: '0.0.0.0' }],
      false,
    ],
    [
      'no IP (every IP) asked, a specific IP taken',
      [{ hostPort: 80, hostIP: '10.0.0.1' }],
      [{ hostPort: 80 }],
      false,
    ],
    ['a specific IP asked, 0.0.0.0 taken', [{ hostPort: 80 }], [{ hostPort: 80, hostIP: '10.0.0.2' }], false],
    [
      '0.0.0.0 on another protocol',
      [{ hostPort: 80, protocol: 'UDP' }],
      [{ hostPort: 80, hostIP: '10.0.0.2' }],
      true,
    ],
  ])('%s', (_name, used, wanted, fits) => {
    expect(filter(podWithPorts('p', wanted), nodeWith(used))).toBe(fits);
  });

  it('frees the ports of a removed pod', () => {
    const info = new NodeInfo(makeNode('n'));
    const existing = podWithPorts('existing', [{ hostPort: 80 }], 'n');
    info.addPod(existing);
    const pod = podWithPorts('p', [{ hostPort: 80 }]);
    expect(filter(pod, info)).toBe(false);
    info.removePod(existing);
    expect(filter(pod, info)).toBe(true);
  });

  it('has the Filter skipped for a pod without host ports', () => {
    expect(new NodePorts().preFilter(new CycleState(), podWithPorts('p', [{}]))?.code).toBe(Code.Skip);
    expect(
      new NodePorts().preFilter(new CycleState(), podWithPorts('p', [{ hostPort: 80 }])),
    ).toBeUndefined();
  });

  it('checks every requested port', () => {
    const info = nodeWith([{ hostPort: 443 }]);
    expect(filter(podWithPorts('p', [{ hostPort: 80 }, { hostPort: 443 }]), info)).toBe(false);
  });
});
