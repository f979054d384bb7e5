import { abs, pow10, removeFactors } from './bigdecimal';

/** How a quantity prints: `1e3` (DecimalExponent), `1Ki` (BinarySI) or `1k` (DecimalSI). */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

const decimalSuffixes: ReadonlyMap<number, string> = new Map([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);
const binarySuffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const ONE_KI = 1024n;

/**
 * Kubernetes' canonical form of unscaled × 10^-scale (Quantity.String without a cached input):
 * - DecimalSI/DecimalExponent: the smallest integer mantissa with an exponent that is a multiple
 *   of 3, then an SI suffix (`1500m`, `100k`) or `e<exp>` (`1e3`);
 * - BinarySI: the integer with as many factors of 1024 moved into the suffix as possible
 *   (`1536Mi`); values below 1024 in magnitude, or with a fraction, print as DecimalSI.
 * Beyond the largest suffixes (E, Ei) the mantissa grows, where Kubernetes would print no suffix.
 */
export function canonicalString(unscaled: bigint, scale: number, format: QuantityFormat): string {
  if (unscaled === 0n) return '0';
  if (format === 'BinarySI') {
    const integral = scale <= 0 || unscaled % pow10(scale) === 0n;
    if (integral) {
      const v = scale <= 0 ? unscaled * pow10(-scale) : unscaled / pow10(scale);
      if (abs(v) >= ONE_KI) {
        let rest = v;
        let times = 0;
        while (times < binarySuffixes.length - 1 && rest % ONE_KI === 0n && abs(rest) >= ONE_KI) {
          rest /= ONE_KI;
          times++;
        }
        return rest.toString() + binarySuffixes[times];
      }
    }
    format = 'DecimalSI';
  }
  const { rest, times } = removeFactors(unscaled, 10n);
  let mantissa = rest;
  let exponent = times - scale;
  const r = ((exponent % 3) + 3) % 3;
  if (r !== 0) {
    mantissa *= pow10(r);
    exponent -= r;
  }
  if (format === 'DecimalExponent') {
    return exponent === 0 ? mantissa.toString() : `${mantissa}e${exponent}`;
  }
  if (exponent > 18) {
    mantissa *= pow10(exponent - 18);
    exponent = 18;
  }
  return mantissa.toString() + decimalSuffixes.get(exponent)!;
}
