/**
 * A bounded queue handled by one asynchronous worker, in order. `push` never blocks: it returns
 * false (and drops the item) when the queue is full or stopped.
 */
export class EventQueue<T> {
  private readonly items: T[] = [];
  private running: Promise<void> | undefined;
  private readonly idle: (() => void)[] = [];
  private readonly stopper = new AbortController();

  constructor(
    private readonly capacity: number,
    private readonly handle: (item: T, stopped: AbortSignal) => Promise<void>,
  ) {}

  /** Aborts when the queue is shut down. */
  get stopped(): AbortSignal {
    return this.stopper.signal;
  }

  push(item: T): boolean {
    if (this.stopper.signal.aborted || this.items.length >= this.capacity) {
      return false;
    }
    this.items.push(item);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      for (const resolve of this.idle.splice(0)) resolve();
    });
    return true;
  }

  private async drain(): Promise<void> {
    for (let item = this.items.shift(); item !== undefined; item = this.items.shift()) {
      if (this.stopper.signal.aborted) {
        return;
      }
      await this.handle(item, this.stopper.signal);
    }
  }

  /** Resolves once every queued item has been handled. */
  flush(): Promise<void> {
    return this.running ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /** Discards queued items and waits for the one being handled. */
  async shutdown(): Promise<void> {
    this.stopper.abort();
    this.items.length = 0;
    await this.running;
  }
}
