import {
  DeletedFinalStateUnknown,
  metaNamespaceKeyFunc,
  RateLimitingQueue,
  waitForCacheSync,
  type KubeObject,
  type RateLimiter,
  type SharedIndexInformer,
} from '@orch/client';
import { errorMessage } from '../errorMessage';
import type { ControllerContext, RunningController } from './ControllerContext';

/** The object of a delete notification, unwrapping a tombstone. */
export function deletedObject<T>(obj: T | DeletedFinalStateUnknown<T>): T {
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
}

/**
 * The level-triggered controller loop: informer events enqueue `namespace/name` keys, workers
 * call `sync(key)` reading from the informer caches, a failed sync is retried with the queue's
 * rate-limited backoff.
 */
export abstract class QueueController implements RunningController {
  protected readonly queue: RateLimitingQueue<string>;
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly name: string,
    protected readonly ctx: ControllerContext,
    rateLimiter?: RateLimiter<string>,
  ) {
    this.queue = new RateLimitingQueue<string>(rateLimiter);
  }

  /**
   * Reconciles one key; throwing requeues it with backoff. Returning false keeps the key's failure
   * count (its next backoff grows); otherwise a successful sync resets it.
   */
  protected abstract sync(key: string): Promise<void | boolean>;

  enqueue(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): void {
    this.queue.add(metaNamespaceKeyFunc(obj));
  }

  enqueueAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, Math.max(0, delayMs));
  }

  /** Calls `fn` every `ms` (at least 10 ms) until the controller stops, without keeping the process alive. */
  protected every(ms: number, fn: () => void): void {
    const timer = setInterval(fn, Math.max(ms, 10));
    timer.unref();
    this.timers.push(timer);
  }

  /** Called once the informers have synced, before the workers start (a first periodic round). */
  protected onSynced(): void {}

  /** Starts the workers once every informer has synced. */
  run(informers: readonly SharedIndexInformer<KubeObject>[]): this {
    this.running = (async () => {
      const synced = await waitForCacheSync(
        informers.map((i) => () => i.hasSynced()),
        { signal: this.abort.signal },
      );
      if (!synced) return;
      this.onSynced();
      const worker = async (): Promise<void> => {
        for (;;) {
          const next = await this.queue.get();
          if (next.shutdown) return;
          const key = next.item;
          try {
            if ((await this.sync(key)) !== false) this.queue.forget(key);
          } catch (err) {
            this.ctx.logger.error(`${this.name}: error syncing "${key}": ${errorMessage(err)}`);
            this.queue.addRateLimited(key);
          } finally {
            this.queue.done(key);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, this.ctx.workers) }, () => worker()));
    })();
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.abort.abort();
    this.queue.shutDown();
    await this.running;
  }
}
