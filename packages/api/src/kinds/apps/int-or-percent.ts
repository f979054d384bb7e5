import type { IntOrString } from '../../schema/fields';
import { isValidPercent } from '../../util/names';
import { GoSyntax, invalid, type FieldError } from '../../validation/field-error';

/** Kubernetes' message for a negative count. */
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

/** Kubernetes' ValidateNonnegativeField. */
export function validateNonnegative(value: number | undefined, path: string): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** The number of a percent string ("25%" → 25), undefined for anything else. */
export function percentValue(value: IntOrString): number | undefined {
  if (typeof value !== 'string' || isValidPercent(value).length) return undefined;
  return Number.parseInt(value.slice(0, -1), 10);
}

/**
 * The number an IntOrString holds (Kubernetes' getIntOrPercentValue): the integer, the percentage, a
 * string that is a whole integer (Go's strconv.Atoi), or 0 for any other string.
 */
export function intOrPercentValue(value: IntOrString): number {
  if (typeof value === 'number') return value;
  const percent = percentValue(value);
  if (percent !== undefined) return percent;
  return /^[+-]?\d+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

/** How Kubernetes prints an IntOrString in a message (Go's %#v of intstr.IntOrString). */
function intOrStringGoSyntax(value: IntOrString): GoSyntax {
  return typeof value === 'string'
    ? new GoSyntax(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(value)}}`)
    : new GoSyntax(`intstr.IntOrString{Type:0, IntVal:${value}, StrVal:""}`);
}

/** An Invalid error for an IntOrString, its value printed as Kubernetes prints it. */
export function invalidIntOrString(path: string, value: IntOrString, detail: string): FieldError {
  return invalid(path, intOrStringGoSyntax(value), detail);
}

/** Kubernetes' ValidatePositiveIntOrPercent: a non-negative integer or a valid percent string. */
export function validatePositiveIntOrPercent(value: IntOrString, path: string): FieldError[] {
  if (typeof value === 'string')
    return isValidPercent(value).map((msg) => invalidIntOrString(path, value, msg));
  return validateNonnegative(value, path);
}

/** Kubernetes' IsNotMoreThan100Percent. */
export function validateNotMoreThan100Percent(value: IntOrString, path: string): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100
    ? [invalidIntOrString(path, value, 'must not be greater than 100%')]
    : [];
}
