/** Kubernetes' initial batch size for creating pods. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/**
 * Calls `fn` `count` times in batches of growing size (1, 2, 4, ...) run in parallel; stops after the
 * first batch with a failure. Returns the successes and the first error.
 */
export async function slowStartBatch(
  count: number,
  initialBatchSize: number,
  fn: (index: number) => Promise<void>,
): Promise<{ successes: number; error: unknown }> {
  let remaining = count;
  let successes = 0;
  let index = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn(index++)));
    let error: unknown;
    for (const r of results) {
      if (r.status === 'fulfilled') successes++;
      else if (error === undefined) error = r.reason ?? new Error('failed');
    }
    if (error !== undefined) return { successes, error };
    remaining -= batch;
  }
  return { successes, error: undefined };
}
