import { TokenBucket, type Clock } from '../rest/TokenBucket';

/** Decides how long an item waits before it is retried. Delays are in milliseconds. */
export interface RateLimiter<T> {
  when(item: T): number;
  /** Clears the item's failure history. */
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** Every item waits the same interval, whatever its history (a controller's resync period). */
export class FixedItemIntervalRateLimiter<T> implements RateLimiter<T> {
  constructor(private readonly intervalMs: number) {}

  when(_item: T): number {
    return this.intervalMs;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** base × 2^failures, capped at max: 5 ms, 10 ms, 20 ms, … up to 1000 s by default. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs = 5,
    readonly maxDelayMs = 1_000_000,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const delay = this.baseDelayMs * Math.pow(2, exp);
    return Number.isFinite(delay) && delay < this.maxDelayMs ? delay : this.maxDelayMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** Fast delay for the first attempts, slow delay after. */
export class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    readonly fastDelayMs: number,
    readonly slowDelayMs: number,
    readonly maxFastAttempts: number,
  ) {}

  when(item: T): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.maxFastAttempts ? this.fastDelayMs : this.slowDelayMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** An overall token bucket shared by all items (10 qps, burst 100 by default). */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private readonly bucket: TokenBucket;

  constructor(qps = 10, burst = 100, clock?: Clock) {
    this.bucket = new TokenBucket(qps, burst, clock);
  }

  when(_item: T): number {
    return this.bucket.reserve();
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay of several limiters. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    this.limiters.forEach((l) => l.forget(item));
  }

  numRequeues(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/** client-go's default for controllers: per-item exponential (5 ms … 1000 s) and 10 qps / burst 100 overall. */
export function defaultControllerRateLimiter<T>(): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1_000_000),
    new BucketRateLimiter<T>(10, 100),
  );
}
