import { isConfigMapKey } from '../../util/names';
import { forbidden, invalid, key, type FieldError } from '../../validation/field-error';

/*
 * Rules ConfigMap and Secret share: the keys of their data maps, the 1 MiB bound on their data and
 * the freeze of an object marked `immutable`.
 */

/** Largest total size of a Secret's or a ConfigMap's data, in bytes (Kubernetes' core.MaxSecretSize). */
export const MAX_SECRET_SIZE = 1024 * 1024;

/** The size of a []byte field's value, given as base64 in JSON. */
export function decodedLength(b64: string): number {
  return Buffer.from(b64, 'base64').length;
}

/** `<path>[<key>]: Invalid value` for each key of a data map that is not a valid config key. */
export function dataKeyErrors(
  data: Readonly<Record<string, unknown>> | undefined,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const k of Object.keys(data ?? {})) {
    for (const msg of isConfigMapKey(k)) errors.push(invalid(key(path, k), k, msg));
  }
  return errors;
}

function sameData(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b ?? {}, k) && b?.[k] === a?.[k]);
}

const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/**
 * Once the stored object has `immutable: true`, that flag stays true and the given data fields keep
 * their content (ValidateSecretUpdate, ValidateConfigMapUpdate): `Forbidden` on each that changed.
 */
export function immutableDataErrors<F extends string>(
  obj: { immutable?: boolean } & Partial<Record<F, Record<string, string>>>,
  old: { immutable?: boolean } & Partial<Record<F, Record<string, string>>>,
  fields: readonly F[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errors: FieldError[] = [];
  if (obj.immutable !== true) errors.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
  for (const f of fields) {
    if (!sameData(obj[f], old[f])) errors.push(forbidden(f, IMMUTABLE_WHEN_SET));
  }
  return errors;
}
