import { sleep } from '../util/sleep';

/** Source of the current time in milliseconds; injectable for tests. */
export type Clock = () => number;

const realClock: Clock = () => performance.now();

/**
 * A token bucket: holds up to `burst` tokens, refilled at `qps` tokens per second. Reservations
 * may drive the bucket below zero; the returned delay is when the reserved token becomes due.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0)) {
      throw new Error(`token bucket qps must be positive, got ${qps}`);
    }
    if (!(burst >= 1)) {
      throw new Error(`token bucket burst must be at least 1, got ${burst}`);
    }
    this.tokens = burst;
    this.last = clock();
  }

  private advance(): void {
    const now = this.clock();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.qps);
  }

  /** Takes one token and returns how many milliseconds to wait before using it. */
  reserve(): number {
    this.advance();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** Takes a token only when one is available right now. */
  tryAccept(): boolean {
    this.advance();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Waits until a token is available. Rejects (returning the token) when the signal aborts. */
  async wait(signal?: AbortSignal): Promise<void> {
    const delay = this.reserve();
    if (delay <= 0) {
      return;
    }
    try {
      await sleep(delay, signal);
    } catch (err) {
      this.tokens = Math.min(this.burst, this.tokens + 1);
      throw err;
    }
  }
}

/** A rate limiter for requests: a token bucket or nothing. */
export interface RequestRateLimiter {
  wait(signal?: AbortSignal): Promise<void>;
}

/** No limit at all. */
export const unlimitedRateLimiter: RequestRateLimiter = { wait: async () => undefined };
