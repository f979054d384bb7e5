import type { RateLimitingQueue } from './RateLimitingQueue';

export interface RunWorkersOptions<T> {
  /** Told about every failed reconcile before the item is requeued. */
  onError?: (item: T, err: unknown) => void;
}

/**
 * Runs `workers` loops taking items from the queue: success forgets the item's failures, an error
 * requeues it rate-limited. Resolves when the queue is shut down and every worker has stopped.
 */
export async function runWorkers<T>(
  queue: RateLimitingQueue<T>,
  workers: number,
  reconcile: (item: T) => Promise<void> | void,
  opts: RunWorkersOptions<T> = {},
): Promise<void> {
  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) {
        return;
      }
      const item = next.item;
      try {
        await reconcile(item);
        queue.forget(item);
      } catch (err) {
        opts.onError?.(item, err);
        queue.addRateLimited(item);
      } finally {
        queue.done(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, () => worker()));
}
