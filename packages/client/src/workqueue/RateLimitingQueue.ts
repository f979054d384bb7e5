import { DelayingQueue } from './DelayingQueue';
import { defaultControllerRateLimiter, type RateLimiter } from './rateLimiters';

/** A DelayingQueue whose retries are spaced by a rate limiter. */
export class RateLimitingQueue<T> extends DelayingQueue<T> {
  constructor(readonly rateLimiter: RateLimiter<T> = defaultControllerRateLimiter<T>()) {
    super();
  }

  /** Adds the item once the rate limiter says it may be retried. */
  addRateLimited(item: T): void {
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Stops tracking the item's failures (call after it was processed successfully). */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
