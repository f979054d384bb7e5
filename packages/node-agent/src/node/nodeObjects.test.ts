import type { Node } from '@orch/api';
import { MAX_SIMULATED_NODES, nodeInternalIP, nodePodCIDR, PodIPAllocator } from './addresses';
import {
  allocatable,
  nodeLease,
  nodeObject,
  nodeStatus,
  reconcileNode,
  simulatedNode,
  UNINITIALIZED_TAINT,
  statusWithoutHeartbeats,
} from './nodeObjects';

const opts = {
  labels: { zone: 'a' },
  taints: [{ key: 'dedicated', value: 'sim', effect: 'NoSchedule' as const }],
  capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
  reserved: { cpu: '250m', memory: '512Mi' },
  version: 'v1.29.0',
  bootID: '2b1f0a7e-0000-4000-8000-000000000001',
};
const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('simulated node addresses', () => {
  it('gives each node a unique InternalIP and a /24 pod CIDR from 10.244.0.0/16 on', () => {
    expect(nodeInternalIP(0)).toBe('172.18.0.1');
    expect(nodeInternalIP(300)).toBe('172.18.1.45');
    // all inside 172.18.0.0/16: clear of the default service range 10.0.0.0/24 and the pod CIDRs
    expect(nodeInternalIP(MAX_SIMULATED_NODES - 1)).toBe('172.18.128.0');
    expect(nodePodCIDR(0)).toBe('10.244.0.0/24');
    expect(nodePodCIDR(255)).toBe('10.244.255.0/24');
    expect(nodePodCIDR(256)).toBe('10.245.0.0/24');
    expect(nodePodCIDR(3071)).toBe('10.255.255.0/24');
    expect(nodePodCIDR(3072)).toBe('10.128.0.0/24');
    expect(nodePodCIDR(MAX_SIMULATED_NODES - 1)).toBe('10.243.255.0/24');
    expect(() => nodePodCIDR(MAX_SIMULATED_NODES)).toThrow(RangeError);
    const cidrs = new Set(Array.from({ length: MAX_SIMULATED_NODES }, (_, i) => nodePodCIDR(i)));
    expect(cidrs.size).toBe(MAX_SIMULATED_NODES);
  });

  it('allocates pod IPs lowest first from .2, reusing released ones', () => {
    const a = new PodIPAllocator('10.244.3.0/24');
    expect([a.allocate(), a.allocate(), a.allocate()]).toEqual(['10.244.3.2', '10.244.3.3', '10.244.3.4']);
    a.release('10.244.3.3');
    expect(a.allocate()).toBe('10.244.3.3');
    expect(a.claim('10.244.3.9')).toBe(true);
    expect(a.claim('10.244.4.9')).toBe(false);
    for (let i = 0; i < 249; i++) expect(a.allocate()).toBeDefined();
    expect(a.allocate()).toBeUndefined();
  });
});

describe('simulated node objects', () => {
  const node = simulatedNode('orch-node-1', 1, opts);

  it('subtracts reserved resources from capacity', () => {
    expect(node.allocatable).toEqual({
      cpu: '3750m',
      memory: '15872Mi',
      pods: '110',
      'ephemeral-storage': '100Gi',
    });
    expect(allocatable({ cpu: '1' }, { cpu: '2' })).toEqual({ cpu: '0' });
  });

  it('registers with the well-known labels, taints and pod CIDR', () => {
    const obj = nodeObject(node);
    expect(obj.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': 'orch-node-1',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'node.kubernetes.io/instance-type': 'simulated',
      zone: 'a',
    });
    expect(obj.spec).toEqual({
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
      taints: [{ key: 'dedicated', value: 'sim', effect: 'NoSchedule' }],
    });
  });

  it('reconciles an existing node: adds its labels and taints, keeps the others', () => {
    const existing = {
      metadata: { name: 'orch-node-1', uid: 'u', labels: { team: 'x', zone: 'old' } },
      spec: {
        podCIDR: '10.9.0.0/24',
        podCIDRs: ['10.9.0.0/24'],
        taints: [{ key: 'other', effect: 'NoExecute' }],
      },
    } as Node;
    const merged = reconcileNode(existing, node);
    expect(merged.metadata?.labels).toMatchObject({
      team: 'x',
      zone: 'a',
      'kubernetes.io/hostname': 'orch-node-1',
    });
    expect(merged.spec?.podCIDR).toBe('10.9.0.0/24');
    expect(merged.spec?.taints?.map((t) => t.key)).toEqual(['other', 'dedicated']);
  });

  it('gives the uninitialized taint to new nodes only, not on re-registration', () => {
    const external = simulatedNode('orch-node-1', 1, {
      ...opts,
      taints: [UNINITIALIZED_TAINT],
      externalCloudProvider: true,
    });
    expect(nodeObject(external).spec?.taints).toEqual([UNINITIALIZED_TAINT]);
    const initialized = { ...nodeObject(external), spec: { providerID: 'local://orch-node-1' } };
    expect(reconcileNode(initialized, external).spec?.taints).toBeUndefined();
  });

  it('reports the kubelet conditions, addresses, endpoint and node info', () => {
    const status = nodeStatus(node, T0);
    expect(status.conditions).toEqual([
      {
        type: 'MemoryPressure',
        status: 'False',
        reason: 'KubeletHasSufficientMemory',
        message: 'kubelet has sufficient memory available',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      {
        type: 'DiskPressure',
        status: 'False',
        reason: 'KubeletHasNoDiskPressure',
        message: 'kubelet has no disk pressure',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      {
        type: 'PIDPressure',
        status: 'False',
        reason: 'KubeletHasSufficientPID',
        message: 'kubelet has sufficient PID available',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ]);
    expect(status.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'orch-node-1' },
    ]);
    expect(status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    expect(status.capacity).toEqual(opts.capacity);
    expect(status.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.29.0',
      containerRuntimeVersion: 'orch-sim://1.0',
      operatingSystem: 'linux',
      architecture: 'amd64',
      bootID: opts.bootID,
    });
    expect(status.nodeInfo?.machineID).toMatch(/^[0-9a-f]{32}$/);
    expect(status.nodeInfo?.systemUUID).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(nodeStatus(simulatedNode('orch-node-1', 1, opts), T0).nodeInfo?.machineID).toBe(
      status.nodeInfo?.machineID,
    );
  });

  it('reports the host it is reached on instead of the simulated address, with a Hostname only when given', () => {
    const onHost = simulatedNode('orch-node-1', 1, { ...opts, host: { ip: '127.0.0.1' } });
    expect(nodeStatus(onHost, T0).addresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: 'orch-node-1' },
    ]);
    const process = simulatedNode('orch-node-1', 1, { ...opts, host: { ip: '10.1.2.3', hostname: 'box' } });
    expect(nodeStatus(process, T0).addresses).toEqual([
      { type: 'InternalIP', address: '10.1.2.3' },
      { type: 'Hostname', address: 'box' },
    ]);
  });

  it('heartbeats without moving lastTransitionTime, and tells heartbeats from changes', () => {
    const first = nodeStatus(node, T0);
    const later = nodeStatus(node, T0 + 60_000, first.conditions);
    const ready = later.conditions?.find((c) => c.type === 'Ready');
    expect(ready?.lastHeartbeatTime).toBe('2026-01-01T00:01:00Z');
    expect(ready?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    expect(statusWithoutHeartbeats(later)).toBe(statusWithoutHeartbeats(first));
  });

  it('builds the lease held by the node, owned by its Node', () => {
    const lease = nodeLease(node, 40, T0 + 1, { metadata: { name: 'orch-node-1', uid: 'node-uid' } } as Node);
    expect(lease).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: 'orch-node-1',
        namespace: 'orch-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'orch-node-1', uid: 'node-uid' }],
      },
      spec: {
        holderIdentity: 'orch-node-1',
        leaseDurationSeconds: 40,
        renewTime: '2026-01-01T00:00:00.001000Z',
      },
    });
  });
});
