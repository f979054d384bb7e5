/*
 * Exact decimal helpers on (unscaled, scale) pairs, value = unscaled × 10^-scale, as inf.Dec in
 * Kubernetes. Only what quantities need.
 */

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 64; i++, p *= 10n) POW10.push(p);

/** 10^n for n >= 0 (table for small n). */
export function pow10(n: number): bigint {
  return n < POW10.length ? POW10[n]! : 10n ** BigInt(n);
}

export function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

export function signOf(v: bigint): -1 | 0 | 1 {
  return v > 0n ? 1 : v < 0n ? -1 : 0;
}

/** Number of decimal digits of |v| (1 for 0). */
export function digitCount(v: bigint): number {
  return abs(v).toString().length;
}

/** v / 10^n rounded away from zero (inf.RoundUp). */
export function divPow10AwayFromZero(v: bigint, n: number): bigint {
  if (n <= 0) return v * pow10(-n);
  // Beyond the digits of v the quotient is 0 with a remainder: the result is ±1 (or 0).
  if (n > digitCount(v)) return BigInt(signOf(v));
  const d = pow10(n);
  const q = v / d;
  if (q * d === v) return q;
  return v > 0n ? q + 1n : q - 1n;
}

/** Strips factors of `base` from v (v ≠ 0); returns the rest and how many were removed. */
export function removeFactors(v: bigint, base: bigint): { rest: bigint; times: number } {
  let times = 0;
  while (v !== 0n && v % base === 0n) {
    v /= base;
    times++;
  }
  return { rest: v, times };
}

/** Compares a×10^-sa with b×10^-sb. */
export function compareScaled(a: bigint, sa: number, b: bigint, sb: number): -1 | 0 | 1 {
  const ga = signOf(a);
  const gb = signOf(b);
  if (ga !== gb) return ga < gb ? -1 : 1;
  if (ga === 0) return 0;
  const diff = sa - sb;
  if (diff !== 0 && Math.abs(diff) > 40) {
    // Far apart scales: compare orders of magnitude before aligning (which could be huge).
    const ma = digitCount(a) - sa;
    const mb = digitCount(b) - sb;
    if (ma !== mb) return (ma < mb ? -ga : ga) as -1 | 1;
  }
  const [x, y] = align(a, sa, b, sb);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Both values on the larger scale: [a', b'] with the same scale max(sa, sb). */
export function align(a: bigint, sa: number, b: bigint, sb: number): [bigint, bigint] {
  if (sa === sb) return [a, b];
  return sa > sb ? [a, b * pow10(sa - sb)] : [a * pow10(sb - sa), b];
}

/** Quantities keep at most 9 fraction digits (1n). */
const NANO_SCALE = 9;

/** The value rounded up (away from zero) to a multiple of 10^-9, as Kubernetes rounds quantities. */
export function roundToNano(unscaled: bigint, scale: number): [bigint, number] {
  return scale > NANO_SCALE
    ? [divPow10AwayFromZero(unscaled, scale - NANO_SCALE), NANO_SCALE]
    : [unscaled, scale];
}
