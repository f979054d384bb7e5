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
 * Deep copy of an object that keeps its `metadata.managedFields` list as it is. Entries of that list
 * are never changed in place (the field manager and the scale subresource write a new list), so a
 * copy made to be changed can share them with the object it was copied from; they are often half of
 * an object's fields.
 */
export function cloneKeepingManagedFields<T extends ApiObject>(obj: T): T {
  const meta = obj.metadata as ObjectMeta | undefined;
  if (typeof meta !== 'object' || meta === null || !Array.isArray(meta.managedFields)) return clone(obj);
  const managedFields = meta.managedFields;
  // an empty list in its place keeps the key's position in the copy
  const empty: ObjectMeta = { ...meta, managedFields: [] };
  const copy = clone({ ...obj, metadata: empty });
  copy.metadata.managedFields = managedFields;
  return copy;
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
