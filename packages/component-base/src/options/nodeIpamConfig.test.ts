import { nodeIpamConfig, type NodeIpamFlagValues } from './nodeIpamConfig';

const base: NodeIpamFlagValues = {
  cidrAllocatorType: 'RangeAllocator',
  clusterCIDR: '10.244.0.0/16',
  serviceClusterIPRange: '',
};

describe('nodeIpamConfig', () => {
  test('the cluster CIDR with the node mask size given, else Kubernetes’ default per family', () => {
    const given = nodeIpamConfig({ ...base, nodeCIDRMaskSize: 26, serviceClusterIPRange: '10.96.0.0/12' });
    expect(given.clusterCIDRs.map((c) => c.text)).toEqual(['10.244.0.0/16']);
    expect(given.nodeMaskSizes).toEqual([26]);
    expect(given.serviceCIDRs.map((c) => c.text)).toEqual(['10.96.0.0/12']);
    expect(nodeIpamConfig(base).nodeMaskSizes).toEqual([24]);
    expect(nodeIpamConfig({ ...base, clusterCIDR: 'fd00::/48' }).nodeMaskSizes).toEqual([64]);
    expect(nodeIpamConfig({ ...base, clusterCIDR: '10.244.0.0/16,fd00::/48' }).nodeMaskSizes).toEqual([
      24, 64,
    ]);
  });

  test.each([
    [
      { cidrAllocatorType: 'CloudAllocator' },
      "--cidr-allocator-type is set to 'CloudAllocator' but cloud provider is not configured",
    ],
    [{ cidrAllocatorType: 'Mystery' }, '--cidr-allocator-type: invalid CIDR allocator type: Mystery'],
    [{ clusterCIDR: '' }, 'Controller: Must specify --cluster-cidr if --allocate-node-cidrs is set'],
    [{ clusterCIDR: '10.0.0.0/33' }, '--cluster-cidr: invalid CIDR address: 10.0.0.0/33'],
    [{ clusterCIDR: '10.0.0.0/16,10.1.0.0/16' }, 'they are not configured as dual stack'],
    [{ serviceClusterIPRange: 'nope' }, '--service-cluster-ip-range: invalid CIDR address: nope'],
    [
      { clusterCIDR: '10.0.0.0/26', nodeCIDRMaskSize: 24 },
      'Controller: Invalid --cluster-cidr, mask size of cluster CIDR must be less than or equal to --node-cidr-mask-size configured for CIDR family',
    ],
    [
      { clusterCIDR: '10.0.0.0/16,fd00::/48', nodeCIDRMaskSize: 24 },
      'usage of --node-cidr-mask-size is not allowed with dual-stack clusters',
    ],
    [{ clusterCIDR: 'fd00::/32' }, 'New CIDR set failed; the node CIDR size is too big'],
  ])('%j is refused: %s', (values, message) => {
    expect(() => nodeIpamConfig({ ...base, ...values })).toThrow(message);
  });
});
