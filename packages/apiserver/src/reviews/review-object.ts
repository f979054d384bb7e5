import { fieldErrors, type FieldError } from '@orch/api';
import { statusErrors, type StatusError } from '../errors/status-error';
import type { ApiObject } from '../registry/object';

/** Kubernetes' 422 for a review body that fails validation (`<Kind>.<group> "<name>" is invalid: ...`). */
export function invalidReview(kind: string, group: string, name: string, errors: FieldError[]): StatusError {
  return statusErrors.invalid(
    kind,
    group,
    name,
    `${kind}.${group} "${name}" is invalid: ${fieldErrors.aggregateMessage(errors)}`,
    errors.map((e) => ({ reason: e.type, message: fieldErrors.errorBody(e), field: e.field })),
  );
}

/** The body of a review request (a missing body is an empty one), typed as the request path's kind and version. */
export function reviewBody(body: ApiObject | undefined, kind: string, apiVersion: string): ApiObject {
  const obj = body ?? ({ metadata: {} } as ApiObject);
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  obj.apiVersion = apiVersion;
  obj.kind = kind;
  return obj;
}

/** Whether metadata is empty (kubectl sends `creationTimestamp: null`), apart from the keys allowed. */
export function metadataEmpty(metadata: object, allowed: readonly string[] = []): boolean {
  return Object.entries(metadata).every(([k, v]) => v === null || v === undefined || allowed.includes(k));
}
