import { nodeIpamConfig, type ControllerContext } from '@orch/component-base';
import { RangeAllocator } from './RangeAllocator';

/**
 * Starts the node IPAM controller with --allocate-node-cidrs; without it there is nothing to do and
 * the controller says so. A configuration it cannot allocate with is an error naming the flag.
 */
export function startNodeIpam(ctx: ControllerContext): RangeAllocator | undefined {
  const flags = ctx.flags;
  if (!flags?.bool?.('allocate-node-cidrs')) {
    ctx.logger.info(
      '"nodeipam" has nothing to do: --allocate-node-cidrs is false, node CIDRs are not allocated',
    );
    return undefined;
  }
  const config = nodeIpamConfig({
    cidrAllocatorType: flags.string('cidr-allocator-type') ?? 'RangeAllocator',
    clusterCIDR: flags.string('cluster-cidr') ?? '',
    serviceClusterIPRange: flags.string('service-cluster-ip-range') ?? '',
    nodeCIDRMaskSize: flags.given('node-cidr-mask-size') ? flags.number('node-cidr-mask-size') : undefined,
  });
  return new RangeAllocator(ctx, config);
}
