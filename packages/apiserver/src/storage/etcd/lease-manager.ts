import { int64, type EtcdKVClient, type Int64 } from './etcd-kv-client';

/** A lease outlives the TTL it was granted for by this share of the TTL, at most a minute. */
const REUSE_FRACTION = 0.05;
const MAX_REUSE_SECONDS = 60;
/** Keys attached to one lease at most. */
const MAX_ATTACHED = 1000;

interface Lease {
  id: Int64;
  /** When etcd drops it (ms since the epoch, as seen before the grant). */
  expiresAt: number;
  attached: number;
}

/**
 * Leases for keys written with a time to live (Kubernetes' lease manager): a lease is granted a
 * little longer than asked and shared by the writes that come while it outlives their time to live
 * by no more than that margin, so a stream of such writes costs one grant per margin, not one per
 * write. A key may therefore live up to 5% (at most a minute) past its time to live.
 */
export class LeaseManager {
  private current: Lease | undefined;
  /** Grants in flight by asked TTL: writes that need a new lease meanwhile wait for the same one. */
  private readonly granting = new Map<number, Promise<Lease>>();

  constructor(
    private readonly kv: EtcdKVClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** The ID of a lease that expires between `ttlSeconds` and that plus the margin from now. */
  async lease(ttlSeconds: number): Promise<Int64> {
    const now = this.now();
    const margin = Math.min(Math.floor(ttlSeconds * REUSE_FRACTION), MAX_REUSE_SECONDS);
    const c = this.current;
    const outlives = c !== undefined && now + ttlSeconds * 1000 < c.expiresAt;
    const closeEnough = c !== undefined && now + (ttlSeconds + margin) * 1000 >= c.expiresAt;
    if (c && outlives && closeEnough && c.attached < MAX_ATTACHED) {
      c.attached++;
      return c.id;
    }
    let grant = this.granting.get(ttlSeconds);
    if (!grant) {
      grant = this.kv
        .leaseGrant(ttlSeconds + margin)
        .then((granted) => {
          // etcd raises a TTL below its minimum: the lease lasts what it says
          const lease = { id: granted.ID, expiresAt: now + int64(granted.TTL) * 1000, attached: 0 };
          this.current = lease;
          return lease;
        })
        .finally(() => this.granting.delete(ttlSeconds));
      this.granting.set(ttlSeconds, grant);
    }
    const lease = await grant;
    lease.attached++;
    return lease.id;
  }
}
