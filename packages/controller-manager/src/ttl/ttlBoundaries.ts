/** The node annotation holding how long the kubelet may cache secrets and config maps, in seconds. */
export const NODE_TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

/** A cluster size band and its TTL; the bands overlap so that a size near a boundary does not flap. */
export interface TTLBoundary {
  sizeMin: number;
  sizeMax: number;
  ttlSeconds: number;
}

/** Kubernetes' TTL bands. */
export const TTL_BOUNDARIES: readonly TTLBoundary[] = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: 10000, ttlSeconds: 300 },
  { sizeMin: 9000, sizeMax: 2 ** 31 - 1, ttlSeconds: 600 },
];

/**
 * The node count and the band it is in. A node added past the band's sizeMax moves to the next
 * band; a node removed below the band's sizeMin moves to the previous one: growing past 100 nodes
 * gives 15 s, shrinking back gives 0 only below 90.
 */
export class ClusterSizeTTL {
  private count = 0;
  private step = 0;

  get nodeCount(): number {
    return this.count;
  }

  /** The TTL, in seconds, every node should carry. */
  get ttlSeconds(): number {
    return TTL_BOUNDARIES[this.step]!.ttlSeconds;
  }

  nodeAdded(): void {
    this.count++;
    if (this.count > TTL_BOUNDARIES[this.step]!.sizeMax && this.step < TTL_BOUNDARIES.length - 1) this.step++;
  }

  nodeRemoved(): void {
    this.count = Math.max(0, this.count - 1);
    if (this.count < TTL_BOUNDARIES[this.step]!.sizeMin && this.step > 0) this.step--;
  }
}

/** Whether a node's annotations already say `ttlSeconds` (an unparsable value does not). */
export function hasTTL(
  annotations: Readonly<Record<string, string>> | undefined,
  ttlSeconds: number,
): boolean {
  const value = annotations?.[NODE_TTL_ANNOTATION];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return false;
  return Number(value) === ttlSeconds;
}
