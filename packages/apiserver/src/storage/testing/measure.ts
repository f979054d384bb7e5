/** Runs `fn` and returns how long it took in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs `count` calls of `op` with at most `concurrency` in flight. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await op(next++);
    }),
  );
}

/** Prints a measured figure (kept out of jest's console capture so it shows in the run's output). */
export function report(line: string): void {
  process.stdout.write(`[storage figures] ${line}\n`);
}
