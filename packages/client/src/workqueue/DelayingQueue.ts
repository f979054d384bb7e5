import { Queue } from './Queue';

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
    const timer = setTimeout(() => {
      this.waiting.delete(item);
      this.add(item);
    }, delayMs);
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
