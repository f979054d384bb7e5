import { abs, pow10, roundToNano } from './bigdecimal';
import { QuantityFormat } from './format';
import { Quantity } from './quantity';
import { remembering } from '../remembering';

/** Kubernetes' message for a string that is not a quantity. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Kubernetes' message for an unknown suffix (`1ki`, `1e`). */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";
/** Kubernetes' message for a numeric part it cannot read. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';

/** A string that is not a quantity; the message is Kubernetes'. */
export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

const SUFFIX_CHARS = 'eEinumkKMGTP';

interface Parts {
  positive: boolean;
  /** Integer digits without leading zeros ('0' when none). */
  num: string;
  /** Fraction digits. */
  denom: string;
  suffix: string;
}

/** Splits `[+-]digits[.digits][suffix]` exactly as Kubernetes' parseQuantityString. */
function split(str: string): Parts {
  const end = str.length;
  let positive = true;
  let pos = 0;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  let i = pos;
  while (isDigit(str[i])) i++;
  if (i >= end) return { positive, num: str.slice(pos), denom: '', suffix: '' };
  const num = i === pos ? '0' : str.slice(pos, i);
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, num, denom, suffix: '' };
    pos = i;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const exponentRegexp = /^[+-]?[0-9]+$/;
const hasOwn = Object.prototype.hasOwnProperty;
const MAX_INT64 = 2n ** 63n - 1n;

/** The base, exponent and format a suffix stands for (`Ki` → 2^10, `m` → 10^-3, `e5` → 10^5). */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  if (hasOwn.call(decimalSuffixes, suffix))
    return { base: 10, exponent: decimalSuffixes[suffix]!, format: 'DecimalSI' };
  if (hasOwn.call(binarySuffixes, suffix))
    return { base: 2, exponent: binarySuffixes[suffix]!, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const digits = suffix.slice(1);
    if (exponentRegexp.test(digits)) {
      const e = BigInt(digits);
      // Kubernetes reads the exponent as an int64, then narrows it to int32.
      if (e >= -(2n ** 63n) && e <= MAX_INT64) {
        return { base: 10, exponent: Number(BigInt.asIntN(32, e)), format: 'DecimalExponent' };
      }
    }
  }
  throw new QuantityError(QUANTITY_SUFFIX_ERROR);
}

/**
 * Parses a quantity as Kubernetes' resource.ParseQuantity: `100m`, `1Gi`, `1.5`, `2e3`, `-1`,
 * `500M`. Fractions beyond 1n round up (away from zero); BinarySI magnitudes are capped at
 * 2^63-1. Throws {@link QuantityError} with Kubernetes' messages.
 */
export function parseQuantity(str: string): Quantity {
  return parsed(str);
}

/**
 * Quantities parsed lately, by text. A Quantity never changes, and the objects written carry the same
 * few texts again and again (`100m`, `64Mi`): validation and defaulting of every write parse them.
 */
const parsed = remembering(parse);

function parse(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(QUANTITY_FORMAT_ERROR);
  if (str === '0') return new Quantity(0n, 0, 'DecimalSI', '0');
  const { positive, num, denom, suffix } = split(str);
  const { base, exponent, format: parsedFormat } = interpretSuffix(suffix);
  let format = parsedFormat;
  const shifted = num + denom;
  let unscaled = BigInt(shifted);
  if (!positive) unscaled = -unscaled;
  let scale = denom.length;
  if (base === 10) scale -= exponent;
  else unscaled *= 1n << BigInt(exponent);

  // Kubernetes keeps the input text when it took its int64 fast path and the text is canonical.
  let cached: string | undefined;
  if (base === 10) {
    const kscale = exponent - denom.length;
    if (
      shifted.length <= 18 &&
      kscale >= -9 &&
      kscale % 3 === 0 &&
      !shifted.endsWith('000') &&
      shifted[0] !== '0'
    ) {
      cached = str;
    }
  } else if (denom.length === 0) {
    const precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    const value = BigInt(shifted);
    if (precision >= 0 && abs(unscaled) <= MAX_INT64 && (value & 7n) !== 0n) cached = str;
  }

  [unscaled, scale] = roundToNano(unscaled, scale);
  if (format === 'BinarySI') {
    if (abs(unscaled) > MAX_INT64) unscaled = unscaled < 0n ? -MAX_INT64 : MAX_INT64;
    // Between 0 and 1 a binary quantity prints as decimal (avoids rounding, and confusion).
    if (unscaled !== 0n && scale > 0 && abs(unscaled) < pow10(scale)) format = 'DecimalSI';
  }
  return new Quantity(unscaled, scale, format, cached);
}

/** Like {@link parseQuantity} but returns undefined instead of throwing. */
export function tryParseQuantity(str: string): Quantity | undefined {
  try {
    return parseQuantity(str);
  } catch {
    return undefined;
  }
}
