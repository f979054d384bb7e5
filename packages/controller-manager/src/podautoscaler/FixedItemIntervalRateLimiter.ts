import type { RateLimiter } from '@orch/client';

/** Every item waits the same interval (Kubernetes' FixedItemIntervalRateLimiter): the autoscaler's resync. */
export class FixedItemIntervalRateLimiter<T> implements RateLimiter<T> {
  constructor(private readonly intervalMs: number) {}

  when(): number {
    return this.intervalMs;
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}
