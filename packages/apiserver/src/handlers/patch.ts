import jsonpatch, { type Operation } from 'fast-json-patch';
import {
  isMap,
  jsonValueName,
  strategicMergePatch,
  StrategicMergeError,
  supportsStrategicMerge,
  type TSchema,
} from '@orch/api';
import { statusErrors, StatusError } from '../errors/status-error';
import { parseMediaType } from '../negotiation/media-type';
import { checkDecoded } from '../negotiation/check-decoded';
import { jsonSyntaxError } from '../negotiation/json-syntax-error';
import { clone, copyKeepingManagedFields, type ApiObject } from '../registry/object';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const patchTypes: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+json': 'apply',
};

/** 415 naming the patch types a resource accepts, as Kubernetes lists them. */
function unsupportedPatchType(apply: boolean, strategic: boolean): StatusError {
  const accepted = Object.keys(patchTypes).filter((k) => {
    if (patchTypes[k] === 'apply') return apply && k !== 'application/apply-patch+json';
    return patchTypes[k] !== 'strategic' || strategic;
  });
  return statusErrors.unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/**
 * The patch type of a PATCH request's Content-Type; 415 for anything else, and for apply when the
 * server does not serve it (the ServerSideApply feature gate off).
 */
export function patchTypeOf(contentType: string | undefined, apply = true): PatchType {
  const m = contentType ? parseMediaType(contentType) : undefined;
  const t = m ? patchTypes[`${m.type}/${m.subtype}`] : undefined;
  if (!t || (t === 'apply' && !apply)) throw unsupportedPatchType(apply, true);
  return t;
}

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * RFC 6902 JSON patch; a failing operation is the client's error, answered with 422 and Kubernetes'
 * generic message, which does not name the operation.
 */
export function applyJSONPatch(target: unknown, body: Buffer): unknown {
  let ops: unknown;
  try {
    ops = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw statusErrors.badRequest(jsonSyntaxError(body) ?? (e as Error).message);
  }
  // null decodes as no operations
  if (ops === null) ops = [];
  if (!Array.isArray(ops)) {
    throw statusErrors.badRequest(
      `json: cannot unmarshal ${jsonValueName(ops)} into Go value of type jsonpatch.Patch`,
    );
  }
  checkDecoded(ops, 'patch');
  try {
    const errors = jsonpatch.validate(ops as Operation[], target);
    if (errors) throw errors;
    return jsonpatch.applyPatch(clone(target), ops as Operation[], false, true).newDocument;
  } catch {
    throw statusErrors.unprocessable();
  }
}

/** Decodes a merge or strategic merge patch body (JSON; apply patches are decoded by the apply path). */
export function decodePatchObject(body: Buffer, type: 'merge' | 'strategic'): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (e) {
    // a merge patch that is no JSON is the merge library's `Invalid JSON Patch`; a strategic one is
    // named by the JSON decoder
    if (type === 'merge') throw statusErrors.badRequest('Invalid JSON Patch');
    throw statusErrors.badRequest(jsonSyntaxError(body) ?? (e as Error).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw statusErrors.badRequest('patch body must be a JSON object');
  }
  checkDecoded(value, 'patch');
  return value as Record<string, unknown>;
}

/**
 * Applies a strategic merge patch driven by the kind's merge metadata. Kinds without a declared
 * struct answer 415, as Kubernetes does for custom resources; a malformed patch is the client's error
 * (400 or 422), never a 500.
 */
export function applyStrategicPatch(
  target: unknown,
  patch: Record<string, unknown>,
  schema: TSchema,
): unknown {
  if (!supportsStrategicMerge(schema)) {
    throw unsupportedPatchType(true, false);
  }
  try {
    const merge = (t: ApiObject): ApiObject => strategicMergePatch(t, patch, schema) as ApiObject;
    // a patch that leaves managedFields alone keeps the target's list, as a copy does
    return isMap(target) && leavesManagedFields(patch)
      ? copyKeepingManagedFields(target as ApiObject, merge)
      : merge(target as ApiObject);
  } catch (e) {
    if (e instanceof StrategicMergeError) {
      const status = e.toStatus();
      if (status.code >= 500) throw statusErrors.badRequest(status.message);
      throw new StatusError({ ...status, code: status.code });
    }
    throw e;
  }
}

/**
 * Whether a strategic merge patch cannot touch managedFields: it has no directive at its root or in
 * its metadata and does not name managedFields.
 */
function leavesManagedFields(patch: Record<string, unknown>): boolean {
  const metadata = patch.metadata;
  if (metadata === null || (metadata !== undefined && !isMap(metadata))) return false;
  for (const map of metadata === undefined ? [patch] : [patch, metadata]) {
    for (const key in map) if (key.startsWith('$') || key.includes('managedFields')) return false;
  }
  return true;
}
