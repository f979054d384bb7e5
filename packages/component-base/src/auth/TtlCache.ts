import { LruCache } from '@orch/client';

/** A bounded cache whose entries expire after their own time to live. */
export class TtlCache<V> {
  private readonly entries: LruCache<string, { value: V; expires: number }>;

  constructor(
    maxEntries = 4096,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new LruCache(maxEntries);
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    return e && e.expires > this.clock() ? e.value : undefined;
  }

  /** Stores `value` for `ttlMs`; a TTL of 0 or less stores nothing. */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs > 0) {
      this.entries.set(key, { value, expires: this.clock() + ttlMs });
    }
  }
}
