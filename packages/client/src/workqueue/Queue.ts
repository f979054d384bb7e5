/** What get() returns: an item to process, or the news that the queue is shut down. */
export type QueueGetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

/**
 * A work queue with client-go's guarantees: an item waiting in the queue is held once however
 * often it is added; an item added while being processed is queued again when done() is called;
 * an item is never handed to two workers at once. Items are compared with ===.
 */
export class Queue<T> {
  private queue: T[] = [];
  /** Items that need processing (queued, or re-added while processing). */
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly getters: ((r: QueueGetResult<T>) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shutdownFlag = false;

  add(item: T): void {
    if (this.shutdownFlag || this.dirty.has(item)) {
      return;
    }
    this.dirty.add(item);
    if (this.processing.has(item)) {
      return;
    }
    this.queue.push(item);
    this.handOut();
  }

  /** Number of items waiting (not counting those being processed). */
  len(): number {
    return this.queue.length;
  }

  /** Resolves with the next item, waiting for one; after shutdown, with the remaining items then shutdown. */
  get(): Promise<QueueGetResult<T>> {
    if (this.queue.length > 0) {
      return Promise.resolve({ item: this.take(), shutdown: false });
    }
    if (this.shutdownFlag) {
      return Promise.resolve({ item: undefined, shutdown: true });
    }
    return new Promise((resolve) => this.getters.push(resolve));
  }

  private take(): T {
    const item = this.queue.shift()!;
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  private handOut(): void {
    while (this.getters.length > 0 && this.queue.length > 0) {
      this.getters.shift()!({ item: this.take(), shutdown: false });
    }
  }

  /** Marks an item processed; if it was added meanwhile it is queued again. */
  done(item: T): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.queue.push(item);
      this.handOut();
    }
    this.checkDrained();
  }

  /** Stops accepting items; waiting get() calls resolve with shutdown once the queue is empty. */
  shutDown(): void {
    this.shutdownFlag = true;
    if (this.queue.length === 0) {
      for (const g of this.getters.splice(0)) {
        g({ item: undefined, shutdown: true });
      }
    }
    this.onShutDown();
    this.checkDrained();
  }

  /** Shuts down and resolves once every queued item has been handed out and marked done. */
  shutDownWithDrain(): Promise<void> {
    const drained = new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    this.shutDown();
    return drained;
  }

  shuttingDown(): boolean {
    return this.shutdownFlag;
  }

  /** Hook for subclasses to release timers. */
  protected onShutDown(): void {}

  private checkDrained(): void {
    if (!this.shutdownFlag) {
      return;
    }
    if (this.queue.length === 0) {
      for (const g of this.getters.splice(0)) {
        g({ item: undefined, shutdown: true });
      }
    }
    if (this.queue.length === 0 && this.processing.size === 0) {
      for (const w of this.drainWaiters.splice(0)) {
        w();
      }
    }
  }
}
