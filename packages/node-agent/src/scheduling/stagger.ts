/**
 * When the `index`-th of `count` periodic jobs first falls due, so that their runs are spread evenly
 * over one period starting at `start`.
 */
export function staggeredDue(start: number, index: number, count: number, periodMs: number): number {
  return start + Math.floor((index * periodMs) / Math.max(1, count));
}

/**
 * The next due time of a periodic job that was due at `previous`: one period later, keeping its slot
 * in the spread; a job that fell behind by more than a period runs at once and takes `now`'s slot.
 */
export function nextDue(previous: number, periodMs: number, now: number): number {
  const next = previous + periodMs;
  return next < now ? now : next;
}
