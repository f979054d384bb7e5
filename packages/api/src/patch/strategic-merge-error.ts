import { setElementOrderDirectivePrefix } from './directives';
import { goSprint, goTypeName } from './go-format';
import type { JsonMap } from './json-value';

/**
 * How the apiserver answers a patch that strategic merge rejects, as Kubernetes' patch handler does
 * (interpretStrategicMergePatchError): malformed directives are 400 BadRequest, lists of lists 422
 * Invalid, anything else 500 with the error text and no reason.
 */
export type StrategicMergeErrorClass = 'BadRequest' | 'Invalid' | 'Internal';

/** A patch strategic merge could not apply (or a diff it could not compute), with Kubernetes' message. */
export class StrategicMergeError extends Error {
  readonly errorClass: StrategicMergeErrorClass;

  constructor(message: string, errorClass: StrategicMergeErrorClass = 'Internal') {
    super(message);
    this.name = 'StrategicMergeError';
    this.errorClass = errorClass;
  }

  /** HTTP status code the apiserver answers with. */
  get code(): 400 | 422 | 500 {
    return this.errorClass === 'BadRequest' ? 400 : this.errorClass === 'Invalid' ? 422 : 500;
  }

  /** The metav1.Status body the apiserver sends for this error. */
  toStatus(): {
    kind: 'Status';
    apiVersion: 'v1';
    metadata: Record<string, never>;
    status: 'Failure';
    message: string;
    reason?: string;
    details?: { causes: { reason: string; message: string }[] };
    code: number;
  } {
    const base = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' } as const;
    switch (this.errorClass) {
      case 'BadRequest':
        return { ...base, message: this.message, reason: 'BadRequest', code: 400 };
      case 'Invalid':
        // errors.NewGenericServerResponse(422, ...): a generic message, the error text as the cause.
        return {
          ...base,
          message: 'the server rejected our request due to an error in our request',
          reason: 'Invalid',
          details: { causes: [{ reason: 'UnexpectedServerResponse', message: this.message }] },
          code: 422,
        };
      default:
        return { ...base, message: this.message, code: 500 };
    }
  }
}

// Kubernetes' mergepatch errors.
export const errBadJSONDoc = (): StrategicMergeError =>
  new StrategicMergeError('invalid JSON document', 'BadRequest');
export const errNoListOfLists = (): StrategicMergeError =>
  new StrategicMergeError('lists of lists are not supported', 'Invalid');
export const errBadPatchFormatForPrimitiveList = (): StrategicMergeError =>
  new StrategicMergeError('invalid patch format of primitive list', 'BadRequest');
export const errBadPatchFormatForRetainKeys = (): StrategicMergeError =>
  new StrategicMergeError('invalid patch format of retainKeys', 'BadRequest');
export const errBadPatchFormatForSetElementOrderList = (): StrategicMergeError =>
  new StrategicMergeError('invalid patch format of setElementOrder list', 'BadRequest');

export function errNoMergeKey(map: JsonMap, key: string): StrategicMergeError {
  return new StrategicMergeError(`map: ${goSprint(map)} does not contain declared merge key: ${key}`);
}

/** `expected a <expected Go type>, but received a <actual Go type>`. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): StrategicMergeError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return new StrategicMergeError(`expected a ${want}, but received a ${goTypeName(actual)}`);
}

export function errBadPatchType(directive: unknown, map: JsonMap): StrategicMergeError {
  const shown =
    typeof directive === 'string'
      ? directive
      : directive === null
        ? '%!s(<nil>)'
        : `%!s(${goTypeName(directive)}=${goSprint(directive)})`;
  return new StrategicMergeError(`unknown patch type: ${shown} in map: ${goSprint(map)}`);
}

export function errSetElementOrderMismatch(
  patchList: unknown[],
  setOrderList: unknown[],
): StrategicMergeError {
  return new StrategicMergeError(
    `The order in patch list:\n${goSprint(patchList)}\n doesn't match ${setElementOrderDirectivePrefix} list:\n${goSprint(setOrderList)}\n`,
  );
}

export function errUnknownField(structName: string, key: string): StrategicMergeError {
  return new StrategicMergeError(
    `unable to find api field in struct ${structName} for the json field ${JSON.stringify(key)}`,
  );
}
