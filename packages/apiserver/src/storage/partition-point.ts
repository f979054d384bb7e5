/**
 * The first index at or after `lo` whose item fails `before`, found by bisection: `before` must hold
 * for a leading run of the items from `lo` and for none after it (as "sorts before x" does for items
 * in order).
 */
export function partitionPoint<T>(items: readonly T[], lo: number, before: (item: T) => boolean): number {
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
