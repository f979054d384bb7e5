/**
 * Slots that spread N periodic jobs evenly over their period: job `index` of `count` runs at
 * origin + index/count of the period, and every period after that.
 */

/** Offset of job `index` of `count` within a period. */
export function staggerOffset(index: number, count: number, periodMs: number): number {
  return Math.floor((index * periodMs) / Math.max(1, count));
}

/** The first slot of job `index` of `count` strictly after `now`. */
export function nextSlot(
  origin: number,
  index: number,
  count: number,
  periodMs: number,
  now: number,
): number {
  const first = origin + staggerOffset(index, count, periodMs);
  if (first > now) return first;
  return first + (Math.floor((now - first) / periodMs) + 1) * periodMs;
}
