/*
 * Addresses of simulated nodes. Node `i` (from 0) gets:
 * - InternalIP 172.18.0.0/16 + i + 1 (172.18.0.1, 172.18.0.2, ...): clear of the service range (the
 *   apiserver's default 10.0.0.0/24, or Kubernetes' usual 10.96.0.0/12) and of the pod CIDRs below;
 * - spec.podCIDR the i-th /24 of 10.244.0.0/16 (10.244.i.0/24); nodes past the 256th continue into
 *   10.245.0.0/24 ... 10.255.255.0/24 and then 10.128.0.0/24 ... 10.243.255.0/24.
 */

/** The most nodes one agent can address. */
export const MAX_SIMULATED_NODES = 32_768;

const NODE_IP_BASE = ipToInt('172.18.0.0');
const POD_CIDR_BASE = ipToInt('10.244.0.0');
const POD_CIDR_FIRST_SPAN = (ipToInt('10.255.255.0') - POD_CIDR_BASE) / 256 + 1;
const POD_CIDR_SPILL_BASE = ipToInt('10.128.0.0');

export function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function checkIndex(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_SIMULATED_NODES) {
    throw new RangeError(`node index ${index} is outside 0-${MAX_SIMULATED_NODES - 1}`);
  }
}

/** InternalIP of the `index`-th node. */
export function nodeInternalIP(index: number): string {
  checkIndex(index);
  return intToIp(NODE_IP_BASE + index + 1);
}

/** spec.podCIDR of the `index`-th node. */
export function nodePodCIDR(index: number): string {
  checkIndex(index);
  const base =
    index < POD_CIDR_FIRST_SPAN
      ? POD_CIDR_BASE + index * 256
      : POD_CIDR_SPILL_BASE + (index - POD_CIDR_FIRST_SPAN) * 256;
  return `${intToIp(base)}/24`;
}

/**
 * Hands out pod IPs of one node's /24: .2 to .254 (.1 is the node's bridge), lowest free first,
 * released addresses reused.
 */
export class PodIPAllocator {
  private readonly base: number;
  private readonly used = new Set<number>();

  constructor(podCIDR: string) {
    this.base = ipToInt(podCIDR.split('/')[0]!);
  }

  /** Takes a free address; undefined when the range is exhausted. */
  allocate(): string | undefined {
    for (let host = 2; host < 255; host++) {
      if (!this.used.has(host)) {
        this.used.add(host);
        return intToIp(this.base + host);
      }
    }
    return undefined;
  }

  /** Marks an address as taken (a pod that already had it); false when it is not in this range. */
  claim(ip: string): boolean {
    const host = ipToInt(ip) - this.base;
    if (host < 2 || host > 254) return false;
    this.used.add(host);
    return true;
  }

  release(ip: string): void {
    this.used.delete(ipToInt(ip) - this.base);
  }
}
