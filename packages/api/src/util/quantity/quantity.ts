import {
  align,
  compareScaled,
  digitCount,
  divPow10AwayFromZero,
  pow10,
  roundToNano,
  signOf,
} from './bigdecimal';
import { canonicalString, QuantityFormat } from './format';

/**
 * resource.Quantity: an exact decimal amount (unscaled × 10^-scale, never a float) with the format
 * it prints in. Immutable: arithmetic returns new quantities. Values parsed from strings are
 * rounded up (away from zero) to 1n; arithmetic is exact.
 */
export class Quantity {
  /** @internal use {@link parseQuantity} or the constructors below. */
  constructor(
    private readonly unscaled: bigint,
    private readonly scale: number,
    readonly format: QuantityFormat,
    /** The input text when Kubernetes would print it unchanged (it was already canonical). */
    private readonly cached?: string,
  ) {}

  /** Kubernetes' canonical string form: `1500m`, `1Gi`, `512Mi`, `1e3`, `0`. */
  toString(): string {
    return this.cached ?? canonicalString(this.unscaled, this.scale, this.format);
  }

  /** Quantities serialize as their string form. */
  toJSON(): string {
    return this.toString();
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return signOf(this.unscaled);
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `y`. */
  cmp(y: Quantity): -1 | 0 | 1 {
    return compareScaled(this.unscaled, this.scale, y.unscaled, y.scale);
  }

  /** Numeric equality (formats may differ). */
  equal(y: Quantity): boolean {
    return this.cmp(y) === 0;
  }

  /** this + y, in this quantity's format (in y's when this is zero), as Kubernetes' Add. */
  add(y: Quantity): Quantity {
    const [a, b] = align(this.unscaled, this.scale, y.unscaled, y.scale);
    return new Quantity(a + b, Math.max(this.scale, y.scale), this.isZero() ? y.format : this.format);
  }

  /** this - y, in this quantity's format (in y's when this is zero), as Kubernetes' Sub. */
  sub(y: Quantity): Quantity {
    const [a, b] = align(this.unscaled, this.scale, y.unscaled, y.scale);
    return new Quantity(a - b, Math.max(this.scale, y.scale), this.isZero() ? y.format : this.format);
  }

  /** -this, same format. */
  neg(): Quantity {
    return new Quantity(-this.unscaled, this.scale, this.format);
  }

  /**
   * The value in units of 10^scale (ScaledValue): scale 0 for units, -3 for milli-units; rounded
   * up, away from zero (`1m` → value 1, `-1.5` → -2). Very large values lose precision as numbers.
   */
  scaledValue(scale: number): number {
    return Number(this.scaledBigInt(scale));
  }

  /** Like {@link scaledValue}, exact. */
  scaledBigInt(scale: number): bigint {
    const d = this.scale + scale;
    if (d >= 0) return divPow10AwayFromZero(this.unscaled, d);
    // Past ~400 digits a number is Infinity anyway; avoid building a huge bigint.
    if (-d + digitCount(this.unscaled) > 400) return this.unscaled > 0n ? 10n ** 400n : -(10n ** 400n);
    return this.unscaled * pow10(-d);
  }

  /** The value in units, rounded up (Value). */
  value(): number {
    return this.scaledValue(0);
  }

  /** The value in milli-units, rounded up (MilliValue): `100m` → 100, `1` → 1000. */
  milliValue(): number {
    return this.scaledValue(-3);
  }

  /** The nearest float (AsApproximateFloat64), for scoring and display, never for decisions. */
  asApproximateFloat64(): number {
    if (this.scale <= 0) return this.scaledValue(0);
    return Number(this.unscaled) / 10 ** this.scale;
  }
}

/** `value` units (NewQuantity), e.g. newQuantity(5, 'BinarySI'). */
export function newQuantity(value: number | bigint, format: QuantityFormat): Quantity {
  return newScaledQuantity(value, 0, format);
}

/** `value` milli-units (NewMilliQuantity), e.g. newMilliQuantity(1500, 'DecimalSI') prints `1500m`. */
export function newMilliQuantity(value: number | bigint, format: QuantityFormat): Quantity {
  return newScaledQuantity(value, -3, format);
}

/**
 * value × 10^scale (NewScaledQuantity), DecimalSI unless a format is given. Precision beyond 1n
 * is rounded up, as parsing does.
 */
export function newScaledQuantity(
  value: number | bigint,
  scale: number,
  format: QuantityFormat = 'DecimalSI',
): Quantity {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(`quantity value must be a safe integer, got ${value}`);
  }
  const [u, s] = roundToNano(BigInt(value), -scale);
  return new Quantity(u, s, format);
}
