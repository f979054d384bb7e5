export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** Adds up to jitter × delay of random extra wait. */
  jitter?: number;
  /** After this long without a failure, the next delay starts over from initialMs. */
  resetAfterMs?: number;
  now?: () => number;
  random?: () => number;
}

/** Exponential backoff with jitter, reset after a quiet period (client-go's reflector defaults). */
export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly resetAfterMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private current: number;
  private last = -Infinity;

  constructor(opts: BackoffOptions = {}) {
    this.initialMs = opts.initialMs ?? 800;
    this.maxMs = opts.maxMs ?? 30_000;
    this.factor = opts.factor ?? 2;
    this.jitter = opts.jitter ?? 1;
    this.resetAfterMs = opts.resetAfterMs ?? 120_000;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.current = this.initialMs;
  }

  /** The delay before the next attempt. */
  next(): number {
    const now = this.now();
    if (now - this.last > this.resetAfterMs) {
      this.current = this.initialMs;
    }
    this.last = now;
    const base = this.current;
    this.current = Math.min(this.maxMs, this.current * this.factor);
    return base + this.jitter * this.random() * base;
  }

  reset(): void {
    this.current = this.initialMs;
    this.last = -Infinity;
  }
}
