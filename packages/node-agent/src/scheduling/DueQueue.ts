import type { Clock } from './Clock';

interface Entry {
  key: string;
  at: number;
  seq: number;
}

export interface DueQueueOptions {
  clock: Clock;
  /** Most handlers running at once (the writer pool). */
  concurrency: number;
  /** Runs one due key; its own failures are its concern (report them through `onError`). */
  handler: (key: string) => Promise<void>;
  onError?: (key: string, err: unknown) => void;
}

/**
 * One scheduler for every periodic or delayed piece of work of the agent: keys with due times in a
 * binary min-heap, ONE timer armed for the earliest due time, and a bounded pool of handlers that
 * take due keys in due-time order. A key is held at most once (scheduling it again moves it) and
 * never runs twice at the same time: a key that falls due while running runs again right after.
 * Thousands of nodes thus cost one timer, not one per node.
 */
export class DueQueue {
  private heap: Entry[] = [];
  /** The live entry of each scheduled key; heap entries not found here are stale. */
  private readonly live = new Map<string, Entry>();
  /** Due keys waiting for a worker, FIFO from `readyHead`. */
  private ready: string[] = [];
  private readyHead = 0;
  private readonly running = new Set<string>();
  /** Keys that fell due while running: run again when done. */
  private readonly rerun = new Set<string>();
  private timer: unknown;
  private timerAt = Infinity;
  private seq = 0;
  private stopped = false;
  private idle: (() => void)[] = [];

  constructor(private readonly opts: DueQueueOptions) {}

  /** Number of keys scheduled or waiting for a worker. */
  get size(): number {
    return this.live.size + this.ready.length - this.readyHead;
  }

  /** Number of handlers running. */
  get active(): number {
    return this.running.size;
  }

  /** Due time of a scheduled key. */
  dueAt(key: string): number | undefined {
    return this.live.get(key)?.at;
  }

  /** Schedules `key` at `at` (ms since the epoch), replacing an earlier schedule of the same key. */
  schedule(key: string, at: number): void {
    if (this.stopped) return;
    const entry = { key, at, seq: this.seq++ };
    this.live.set(key, entry);
    this.push(entry);
    if (this.heap.length > 4 * this.live.size + 64) this.compact();
    this.arm();
  }

  /** Runs `key` as soon as a worker is free. */
  now(key: string): void {
    this.schedule(key, this.opts.clock.now());
  }

  /** Forgets a scheduled key (a running handler finishes). */
  cancel(key: string): void {
    this.live.delete(key);
    this.rerun.delete(key);
  }

  /** Stops timers and new work; resolves when running handlers are done. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.heap = [];
    this.live.clear();
    this.ready = [];
    this.readyHead = 0;
    this.rerun.clear();
    if (this.running.size > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private arm(): void {
    const top = this.peekLive();
    if (!top) return;
    if (this.timer !== undefined && this.timerAt <= top.at) return;
    if (this.timer !== undefined) this.opts.clock.clearTimer(this.timer);
    this.timerAt = top.at;
    this.timer = this.opts.clock.setTimer(() => this.fire(), top.at - this.opts.clock.now());
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.stopped) return;
    const now = this.opts.clock.now();
    for (let top = this.peekLive(); top && top.at <= now; top = this.peekLive()) {
      this.pop();
      this.live.delete(top.key);
      if (this.running.has(top.key)) this.rerun.add(top.key);
      else this.ready.push(top.key);
    }
    this.pump();
    this.arm();
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.opts.concurrency && this.readyHead < this.ready.length) {
      const key = this.ready[this.readyHead++]!;
      if (this.readyHead === this.ready.length) {
        this.ready = [];
        this.readyHead = 0;
      } else if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
        this.ready = this.ready.slice(this.readyHead);
        this.readyHead = 0;
      }
      if (this.running.has(key)) {
        this.rerun.add(key);
        continue;
      }
      this.running.add(key);
      void this.opts
        .handler(key)
        .catch((err: unknown) => this.opts.onError?.(key, err))
        .finally(() => this.done(key));
    }
  }

  private done(key: string): void {
    this.running.delete(key);
    if (this.rerun.delete(key) && !this.stopped) this.ready.push(key);
    this.pump();
    if (this.running.size === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** The earliest live entry, dropping stale ones on the way. */
  private peekLive(): Entry | undefined {
    while (this.heap.length > 0) {
      const top = this.heap[0]!;
      if (this.live.get(top.key) === top) return top;
      this.pop();
    }
    return undefined;
  }

  private compact(): void {
    this.heap = [...this.live.values()].sort(before);
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (before(h[parent]!, h[i]!) <= 0) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }

  private pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!) < 0) m = l;
        if (r < h.length && before(h[r]!, h[m]!) < 0) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
}

function before(a: Entry, b: Entry): number {
  return a.at - b.at || a.seq - b.seq;
}
