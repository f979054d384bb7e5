import { parse as parseYAML } from 'yaml';
import {
  ApplyConflictError,
  ApplyRequestError,
  TypedValueError,
  type FieldManager,
  type ManagedObject,
} from '@orch/api';
import { statusErrors, StatusError } from '../errors/status-error';
import { checkDecoded } from '../negotiation/check-decoded';
import type { ApiObject } from '../registry/object';

/** Decodes an apply patch body: JSON or YAML, one object. */
export function decodeApplyPatch(body: Buffer): ManagedObject {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = /^\s*\{/.test(text) ? JSON.parse(text) : parseYAML(text);
  } catch (e) {
    throw statusErrors.badRequest(`error decoding YAML: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw statusErrors.badRequest('error decoding YAML: the apply patch must be an object');
  }
  checkDecoded(value, 'YAML');
  return value as ManagedObject;
}

export interface ApplyRequest {
  manager: string;
  apiVersion: string;
  force: boolean;
  subresource: string;
}

/** Server-side apply of `patch` over the stored object (undefined: create), with Kubernetes' errors. */
export function applyPatch(
  fm: FieldManager,
  current: ApiObject | undefined,
  patch: ManagedObject,
  request: ApplyRequest,
): ApiObject {
  try {
    return fm.apply(
      current as ManagedObject | undefined,
      patch,
      request.manager,
      request.apiVersion,
      request.force,
      request.subresource,
    ) as ApiObject;
  } catch (e) {
    throw applyError(e);
  }
}

function applyError(e: unknown): unknown {
  if (e instanceof ApplyConflictError) return statusErrors.applyConflict(e.message, e.causes);
  if (e instanceof ApplyRequestError) return statusErrors.badRequest(e.message);
  // an applied configuration that is no typed value of the kind (a field the schema does not
  // declare, a list item without its key, duplicate keys) is the client's mistake: 400, where
  // Kubernetes 1.29 still answers 500 (kubernetes#122480)
  if (e instanceof TypedValueError) {
    return statusErrors.badRequest(`failed to create typed patch object: ${e.message}`);
  }
  if (e instanceof StatusError) return e;
  return e;
}
