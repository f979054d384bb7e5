import { aggregateText } from '../util/aggregate-text';
/**
 * Field errors as Kubernetes reports them (apimachinery's field.Error): a type, the field path in
 * Kubernetes' notation (`spec.template.spec.containers[0].name`), the bad value and a detail.
 */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** A bad value left out of the message (Kubernetes' field.OmitValueType): `Invalid value: detail`. */
export const OMIT_VALUE: unique symbol = Symbol('omit value');

export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue?: unknown;
  detail?: string;
  /**
   * For a value of the wrong JSON type in a declared struct: the message Kubernetes' JSON decoder
   * refuses it with before any validation (see goDecodeError), when the declarations tell it.
   */
  decodeError?: string;
}

/** The text Kubernetes prints for each error type. */
const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Joins a path and a child field name or index the way Kubernetes prints paths. */
export function child(path: string, name: string | number): string {
  if (typeof name === 'number') return `${path}[${name}]`;
  return path === '' ? name : `${path}.${name}`;
}

/** A map key in a path: `metadata.labels[app]`. */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

export const required = (field: string, detail = ''): FieldError => ({
  type: 'FieldValueRequired',
  field,
  detail,
});
export const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  badValue,
  detail,
});
export const notSupported = (field: string, badValue: unknown, valid: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  badValue,
  detail: valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '',
});
export const duplicate = (field: string, badValue: unknown): FieldError => ({
  type: 'FieldValueDuplicate',
  field,
  badValue,
});
export const forbidden = (field: string, detail: string): FieldError => ({
  type: 'FieldValueForbidden',
  field,
  detail,
});
export const notFound = (field: string, badValue: unknown): FieldError => ({
  type: 'FieldValueNotFound',
  field,
  badValue,
});
export const tooLong = (field: string, badValue: unknown, max: number): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  badValue,
  detail: `must have at most ${max} bytes`,
});
export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany',
  field,
  badValue: actual,
  detail: `must have at most ${max} items`,
});
export const typeInvalid = (field: string, badValue: unknown, detail: string): FieldError => ({
  type: 'FieldValueTypeInvalid',
  field,
  badValue,
  detail,
});

/**
 * A bad value printed as the given Go syntax: Kubernetes prints values of Go types without a String
 * method with %#v (an IntOrString as `intstr.IntOrString{Type:1, IntVal:0, StrVal:"5x"}`).
 */
export class GoSyntax {
  constructor(readonly text: string) {}
}

/** Go's %#v of a []string, as Kubernetes prints string lists in messages: `[]string{"a", "b"}`. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** Kubernetes' rendering of a bad value: strings quoted, numbers and booleans bare, objects as Go would print. */
function renderValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (value instanceof GoSyntax) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return goStringSlice(value as string[]);
  return JSON.stringify(value);
}

/**
 * `Invalid value: "A_b": detail` — the error without its field (Kubernetes' ErrorBody, the message of
 * a StatusCause).
 */
export function errorBody(e: FieldError): string {
  const text = typeText[e.type];
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      return e.detail ? `${text}: ${e.detail}` : text;
    default: {
      let s = text;
      if (e.badValue === OMIT_VALUE) return e.detail ? `${s}: ${e.detail}` : s;
      if (e.badValue !== undefined || e.type === 'FieldValueInvalid' || e.type === 'FieldValueNotSupported') {
        s += `: ${renderValue(e.badValue)}`;
      }
      return e.detail ? `${s}: ${e.detail}` : s;
    }
  }
}

/** `field: Invalid value: "A_b": detail` — the message kubectl shows for one error. */
export function errorMessage(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/**
 * The aggregate Kubernetes puts in an Invalid status message: the one message, or `[a, b]`;
 * repeated messages are listed once (ErrorList.ToAggregate).
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  return aggregateText(errors.map(errorMessage));
}
