import { Queue } from './Queue';

/** The longest delay one timer can wait (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A Queue that can also add an item after a delay; of several pending delays the earliest wins. */
export class DelayingQueue<T> extends Queue<T> {
  private readonly waiting = new Map<T, { readyAt: number; timer: NodeJS.Timeout }>();

  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) {
      return;
    }
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const readyAt = Date.now() + delayMs;
    const pending = this.waiting.get(item);
    if (pending) {
      if (pending.readyAt <= readyAt) {
        return;
      }
      clearTimeout(pending.timer);
    }
    this.arm(item, readyAt);
  }

  /**
   * Sets the item's timer for `readyAt`. A timer can wait at most MAX_TIMER_MS (longer delays fire
   * at once in Node), so a longer delay is waited out in steps.
   */
  private arm(item: T, readyAt: number): void {
    const wait = Math.min(readyAt - Date.now(), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      if (Date.now() < readyAt) {
        this.arm(item, readyAt);
        return;
      }
      this.waiting.delete(item);
      this.add(item);
    }, wait);
    this.waiting.set(item, { readyAt, timer });
  }

  /** Items waiting for their delay to pass. */
  waitingLen(): number {
    return this.waiting.size;
  }

  protected override onShutDown(): void {
    for (const { timer } of this.waiting.values()) {
      clearTimeout(timer);
    }
    this.waiting.clear();
  }
}
