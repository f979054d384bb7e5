import { goQuote } from '../goQuote';

/** An IntOrString value as it appears in JSON: an integer, or a string such as "25%". */
export type IntOrStringValue = number | string;

/** A bad IntOrString; the message is Kubernetes'. */
export class IntOrStringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IntOrStringError';
  }
}

const atoiRegexp = /^[+-]?[0-9]+$/;
// Go's int is 64-bit; numbers here must also stay exact.
const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;

/** strconv.Atoi with its error text (`strconv.Atoi: parsing "x": invalid syntax`). */
function atoi(s: string): number {
  if (!atoiRegexp.test(s)) throw new Error(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v < INT_MIN || v > INT_MAX) throw new Error(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(v);
}

/** The integer of an int value, or of a percent string and whether it was one (getIntOrPercentValueSafely). */
function intOrPercent(value: IntOrStringValue): { value: number; isPercent: boolean } {
  if (typeof value === 'number') return { value, isPercent: false };
  if (typeof value === 'string') {
    if (!value.endsWith('%')) throw new Error('invalid type: string is not a percentage');
    try {
      return { value: atoi(value.slice(0, -1)), isPercent: true };
    } catch (e) {
      throw new Error(`invalid value ${goQuote(value)}: ${(e as Error).message}`, { cause: e });
    }
  }
  throw new Error('invalid type: neither int nor percentage');
}

/**
 * Kubernetes' GetScaledValueFromIntOrPercent: an int is returned as is; "p%" is p×total/100,
 * rounded up (ceil) or down (floor) as asked, computed in floating point as Kubernetes does.
 * Throws {@link IntOrStringError}: `nil value for IntOrString`, or
 * `invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax`,
 * or `invalid value for IntOrString: invalid type: string is not a percentage`.
 */
export function getScaledValueFromIntOrPercent(
  value: IntOrStringValue | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (value === null || value === undefined) throw new IntOrStringError('nil value for IntOrString');
  let parsed: { value: number; isPercent: boolean };
  try {
    parsed = intOrPercent(value);
  } catch (e) {
    throw new IntOrStringError(`invalid value for IntOrString: ${(e as Error).message}`);
  }
  if (!parsed.isPercent) return parsed.value;
  const scaled = (parsed.value * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
