import {
  DeletedFinalStateUnknown,
  metaNamespaceKeyFunc,
  RateLimitingQueue,
  runWorkers,
  waitForCacheSync,
  type KubeObject,
  type SharedIndexInformer,
} from '@orch/client';
import { errorMessage } from '@orch/component-base';
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
  protected readonly queue = new RateLimitingQueue<string>();
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(
    readonly name: string,
    protected readonly ctx: ControllerContext,
  ) {}

  /** Reconciles one key; throwing requeues it with backoff. */
  protected abstract sync(key: string): Promise<void>;

  enqueue(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): void {
    this.queue.add(metaNamespaceKeyFunc(obj));
  }

  enqueueAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, Math.max(0, delayMs));
  }

  /** Starts the workers once every informer has synced. */
  run(informers: readonly SharedIndexInformer<KubeObject>[]): this {
    this.running = (async () => {
      const synced = await waitForCacheSync(
        informers.map((i) => () => i.hasSynced()),
        { signal: this.abort.signal },
      );
      if (!synced) return;
      await runWorkers(this.queue, this.ctx.workers, (key) => this.sync(key), {
        onError: (key, err) => this.ctx.logger.error(`${this.name}: error syncing "${key}": ${errorMessage(err)}`),
      });
    })();
    return this;
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.queue.shutDown();
    await this.running;
  }
}
