/**
 * A token bucket on an injected clock: `qps` tokens a second up to `burst`, full at the start. A
 * rate of 0 (or less) accepts nothing.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = qps > 0 ? burst : 0;
    this.last = now();
  }

  /** Takes a token if one is there. */
  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    const now = this.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
      this.last = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
