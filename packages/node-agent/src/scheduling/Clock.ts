/** Time source and one-shot timers; the real clock in production, a fake one in tests. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimer(fn: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The process clock; timers are unref'd so that they alone never keep the process alive. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, delayMs) => {
    const t = setTimeout(fn, Math.max(0, delayMs));
    t.unref();
    return t;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A clock that moves only when told to; `advance` fires every timer that falls due, in order. */
export class FakeClock implements Clock {
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;

  constructor(private time = 0) {}

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, delayMs: number): unknown {
    const timer = { at: this.time + Math.max(0, delayMs), seq: this.seq++, fn };
    this.timers.push(timer);
    return timer;
  }

  clearTimer(handle: unknown): void {
    this.timers = this.timers.filter((t) => t !== handle);
  }

  /** Number of armed timers. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing due timers (and those they arm) at their own times. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = end;
  }
}
