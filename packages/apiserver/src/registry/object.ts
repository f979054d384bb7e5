import { cloneJson, type ObjectMeta } from '@orch/api';

/** An API object in its JSON form. */
export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** Deep copy of a JSON value. */
export function clone<T>(value: T): T {
  return cloneJson(value);
}

/**
 * `copy(obj)`, where `copy` makes an object sharing nothing with its input, except that the result
 * keeps `obj`'s `metadata.managedFields` list as it is. Entries of that list are never changed in
 * place (the field manager and the scale subresource write a new list), so a copy made to be changed
 * can share them with the object it was made from; they are often half of an object's fields. `copy`
 * sees an empty list in their place, which keeps the key's position in the result.
 */
export function copyKeepingManagedFields<T extends ApiObject>(obj: T, copy: (obj: T) => T): T {
  const meta = obj.metadata as ObjectMeta | undefined;
  if (typeof meta !== 'object' || meta === null || !Array.isArray(meta.managedFields)) return copy(obj);
  const managedFields = meta.managedFields;
  const empty: ObjectMeta = { ...meta, managedFields: [] };
  const result = copy({ ...obj, metadata: empty });
  result.metadata.managedFields = managedFields;
  return result;
}

/** Deep copy of an object but for its `metadata.managedFields` list (see {@link copyKeepingManagedFields}). */
export function cloneKeepingManagedFields<T extends ApiObject>(obj: T): T {
  return copyKeepingManagedFields(obj, clone);
}

/** Deep equality of JSON values (key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // keys holding undefined are absent from the JSON form: they count on neither side
  let defined = 0;
  for (const k in ao) {
    const v = ao[k];
    if (v === undefined) continue;
    if (!jsonEqual(v, bo[k])) return false;
    defined++;
  }
  for (const k in bo) if (bo[k] !== undefined) defined--;
  return defined === 0;
}

/** RFC 3339 with second precision, as Kubernetes' metav1.Time. */
export function nowTime(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
