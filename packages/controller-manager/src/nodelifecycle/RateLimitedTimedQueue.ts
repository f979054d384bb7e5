import { TokenBucket } from './TokenBucket';

/** A queued node: its name and uid, when it was added and when it is next due. */
export interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/** What processing a value says: done, or retry after `retryAfterMs`. */
export interface TryResult {
  done: boolean;
  retryAfterMs?: number;
}

/** Burst of the rate limiters of the zone queues. */
export const EVICTION_RATE_LIMITER_BURST = 1;

/**
 * The nodes of one zone waiting to be tainted (or evicted), taken in order of when they are due
 * through a token bucket (Kubernetes' RateLimitedTimedQueue). A value is added once: done, it
 * leaves the queue but stays known until removed, so it is not added again meanwhile.
 */
export class RateLimitedTimedQueue {
  private queue: TimedValue[] = [];
  private readonly known = new Set<string>();
  private limiter: TokenBucket;

  constructor(
    private readonly now: () => number,
    qps: number,
    private readonly burst = EVICTION_RATE_LIMITER_BURST,
  ) {
    this.limiter = new TokenBucket(qps, burst, now);
  }

  /** The current rate. */
  get qps(): number {
    return this.limiter.qps;
  }

  /** Adds a value due now; false when it is already known. */
  add(value: string, uid: string): boolean {
    if (this.known.has(value)) return false;
    const now = this.now();
    this.known.add(value);
    this.insert({ value, uid, addedAt: now, processAt: now });
    return true;
  }

  /** Forgets a value, queued or done; true when it was known. */
  remove(value: string): boolean {
    this.queue = this.queue.filter((v) => v.value !== value);
    return this.known.delete(value);
  }

  /** Values waiting, in order. */
  pending(): readonly TimedValue[] {
    return this.queue;
  }

  /**
   * Processes due values in order while the limiter gives tokens: a value done leaves the queue,
   * one not done is due again after its retry delay.
   */
  async try(fn: (v: TimedValue) => Promise<TryResult>): Promise<void> {
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      if (!this.limiter.tryAccept()) return;
      const now = this.now();
      if (now < head.processAt) return;
      const result = await fn(head);
      // The value may have been removed (and re-added) while it was processed.
      if (this.queue[0] !== head) continue;
      this.queue.shift();
      if (!result.done) this.insert({ ...head, processAt: now + (result.retryAfterMs ?? 0) + 1 });
    }
  }

  /** Replaces the rate limiter with one of `qps` (0 stops processing); the same rate keeps the current one. */
  swapLimiter(qps: number): void {
    if (this.limiter.qps === qps) return;
    this.limiter = new TokenBucket(qps, this.burst, this.now);
  }

  private insert(v: TimedValue): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.processAt > v.processAt) i--;
    this.queue.splice(i, 0, v);
  }
}
