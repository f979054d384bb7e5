import { parseCIDR } from '@orch/api';
import type { ParsedCIDR } from '@orch/component-base';

/** Kubernetes' error when a cluster CIDR has no node CIDR left. */
export const CIDR_RANGE_EXHAUSTED =
  'CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range';

/** An address as Go prints it: dotted IPv4, or IPv6 with the longest run of zero groups as `::`. */
export function formatIP(family: 4 | 6, bits: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => Number((bits >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j;
  }
  const hex = (part: number[]): string => part.map((g) => g.toString(16)).join(':');
  if (best.length < 2) return hex(groups);
  return `${hex(groups.slice(0, best.at))}::${hex(groups.slice(best.at + best.length))}`;
}

/**
 * The node CIDRs of one cluster CIDR (Kubernetes' CidrSet): the cluster CIDR cut into subnets of the
 * node mask size, handed out round-robin from after the last one given, so a released CIDR is
 * reused only once the others were.
 */
export class CIDRSet {
  /** How many node CIDRs the cluster CIDR holds. */
  readonly maxCIDRs: number;
  private readonly used = new Set<number>();
  private nextCandidate = 0;
  private readonly width: number;

  constructor(
    readonly cluster: ParsedCIDR,
    readonly nodeMaskSize: number,
  ) {
    this.width = cluster.family === 4 ? 32 : 128;
    this.maxCIDRs = 2 ** (nodeMaskSize - cluster.prefix);
  }

  /** Node CIDRs in use. */
  get allocated(): number {
    return this.used.size;
  }

  /** The next free node CIDR, marked used; throws when none is left. */
  allocateNext(): string {
    for (let n = 0; n < this.maxCIDRs && this.used.size < this.maxCIDRs; n++) {
      const i = (this.nextCandidate + n) % this.maxCIDRs;
      if (this.used.has(i)) continue;
      this.used.add(i);
      this.nextCandidate = (i + 1) % this.maxCIDRs;
      return this.cidrAt(i);
    }
    throw new Error(CIDR_RANGE_EXHAUSTED);
  }

  /** Marks every node CIDR the given CIDR overlaps as used; throws when it is outside the cluster CIDR. */
  occupy(cidr: string): void {
    const [begin, end] = this.indices(cidr);
    for (let i = begin; i <= end; i++) this.used.add(i);
  }

  /** Frees every node CIDR the given CIDR overlaps; throws when it is outside the cluster CIDR. */
  release(cidr: string): void {
    const [begin, end] = this.indices(cidr);
    for (let i = begin; i <= end; i++) this.used.delete(i);
  }

  /** Whether the CIDR overlaps the cluster CIDR (one holds the other). */
  overlaps(cidr: string): boolean {
    const c = parseCIDR(cidr);
    if (!c || c.family !== this.cluster.family) return false;
    const shortest = BigInt(this.width - Math.min(c.prefix, this.cluster.prefix));
    return c.network >> shortest === this.cluster.network >> shortest;
  }

  private cidrAt(i: number): string {
    const network = this.cluster.network + (BigInt(i) << BigInt(this.width - this.nodeMaskSize));
    return `${formatIP(this.cluster.family, network)}/${this.nodeMaskSize}`;
  }

  /** The first and last node CIDR index a CIDR covers. */
  private indices(cidr: string): [number, number] {
    const c = parseCIDR(cidr);
    if (!c) throw new Error(`invalid CIDR address: ${cidr}`);
    if (!this.overlaps(cidr))
      throw new Error(`cidr ${cidr} is out the range of cluster cidr ${this.cluster.text}`);
    if (c.prefix <= this.cluster.prefix) return [0, this.maxCIDRs - 1];
    const shift = BigInt(this.width - this.nodeMaskSize);
    const index = (ip: bigint): number => Number((ip - this.cluster.network) >> shift);
    const last = c.network | ((1n << BigInt(this.width - c.prefix)) - 1n);
    return [index(c.network), index(last)];
  }
}
