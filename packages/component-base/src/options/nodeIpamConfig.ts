import { parseCIDR } from '@orch/api';
import { splitList } from './flagTypes';

/** The one CIDR allocator type this controller manager runs. */
export const RANGE_ALLOCATOR = 'RangeAllocator';

/** A parsed CIDR: family, network address bits and prefix length. */
export interface ParsedCIDR {
  family: 4 | 6;
  network: bigint;
  prefix: number;
  /** As given on the command line. */
  text: string;
}

/** What the node IPAM controller allocates from, from its flags. */
export interface NodeIpamConfig {
  /** --cluster-cidr: one, or two of different families (dual-stack). */
  clusterCIDRs: ParsedCIDR[];
  /** --service-cluster-ip-range: the primary and the optional secondary service range. */
  serviceCIDRs: ParsedCIDR[];
  /** The node mask size of each cluster CIDR, by index. */
  nodeMaskSizes: number[];
}

/** The flag values the configuration is read from. */
export interface NodeIpamFlagValues {
  cidrAllocatorType: string;
  clusterCIDR: string;
  serviceClusterIPRange: string;
  /** --node-cidr-mask-size when given on the command line. */
  nodeCIDRMaskSize?: number;
}

/** Kubernetes' defaults when --node-cidr-mask-size is not given. */
const DEFAULT_MASK = { 4: 24, 6: 64 } as const;
/** Kubernetes bounds an IPv6 cluster CIDR to 2^16 node CIDRs. */
const MAX_IPV6_SUBNET_BITS = 16;

function parseCIDRs(flag: string, text: string): ParsedCIDR[] {
  return splitList(text).map((c) => {
    const parsed = parseCIDR(c);
    if (!parsed) throw new Error(`--${flag}: invalid CIDR address: ${c}`);
    return { ...parsed, text: c };
  });
}

/**
 * The node IPAM configuration with --allocate-node-cidrs, checked as Kubernetes' controller manager
 * checks it when it starts the controller: an error (its message Kubernetes') for an allocator type
 * other than RangeAllocator, a missing or malformed --cluster-cidr, more than one CIDR of a family,
 * and a node mask size shorter than a cluster CIDR's prefix.
 */
export function nodeIpamConfig(values: NodeIpamFlagValues): NodeIpamConfig {
  if (values.cidrAllocatorType === 'CloudAllocator')
    throw new Error("--cidr-allocator-type is set to 'CloudAllocator' but cloud provider is not configured");
  if (values.cidrAllocatorType !== RANGE_ALLOCATOR)
    throw new Error(
      `--cidr-allocator-type: invalid CIDR allocator type: ${values.cidrAllocatorType} (only ${RANGE_ALLOCATOR} is supported)`,
    );
  const clusterCIDRs = parseCIDRs('cluster-cidr', values.clusterCIDR);
  if (clusterCIDRs.length === 0)
    throw new Error('Controller: Must specify --cluster-cidr if --allocate-node-cidrs is set');
  const dualStack = clusterCIDRs.length === 2 && clusterCIDRs[0]!.family !== clusterCIDRs[1]!.family;
  if (clusterCIDRs.length > 2)
    throw new Error(`--cluster-cidr: len of clusters is:${clusterCIDRs.length} > more than max allowed of 2`);
  if (clusterCIDRs.length > 1 && !dualStack)
    throw new Error(
      `--cluster-cidr: len of ClusterCIDRs==${clusterCIDRs.length} and they are not configured as dual stack (at least one from each IPFamily`,
    );
  const serviceCIDRs = parseCIDRs('service-cluster-ip-range', values.serviceClusterIPRange);
  if (serviceCIDRs.length > 2)
    throw new Error('--service-cluster-ip-range: at most two (a primary and a secondary) are allowed');
  if (dualStack && values.nodeCIDRMaskSize !== undefined)
    throw new Error('usage of --node-cidr-mask-size is not allowed with dual-stack clusters');
  const nodeMaskSizes = clusterCIDRs.map((c) => values.nodeCIDRMaskSize ?? DEFAULT_MASK[c.family]);
  clusterCIDRs.forEach((cidr, i) => {
    const mask = nodeMaskSizes[i]!;
    if (mask > (cidr.family === 4 ? 32 : 128) || mask < 1)
      throw new Error(`--node-cidr-mask-size ${mask} is not a valid mask size for ${cidr.text}`);
    if (cidr.prefix > mask)
      throw new Error(
        'Controller: Invalid --cluster-cidr, mask size of cluster CIDR must be less than or equal to --node-cidr-mask-size configured for CIDR family',
      );
    if (cidr.family === 6 && mask - cidr.prefix > MAX_IPV6_SUBNET_BITS)
      throw new Error('New CIDR set failed; the node CIDR size is too big');
  });
  return { clusterCIDRs, serviceCIDRs, nodeMaskSizes };
}
