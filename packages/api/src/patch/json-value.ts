/** Helpers over decoded JSON values (objects, arrays, strings, numbers, booleans, null). */

export type JsonMap = Record<string, unknown>;

export function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The Go type a decoded JSON value has in Kubernetes' unstructured form (integers are int64, other
 * numbers float64); strategic merge compares these, as Go compares reflect types.
 */
export type GoKind = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

export function goKind(value: unknown): GoKind {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  switch (typeof value) {
    case 'object':
      return 'map';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'nil';
  }
}

/** A deep copy of a JSON value. */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: JsonMap = {};
  for (const k in value) {
    if (Object.prototype.hasOwnProperty.call(value, k)) out[k] = cloneJson((value as JsonMap)[k]);
  }
  return out as T;
}

/** Structural equality of JSON values (Go's reflect.DeepEqual on unstructured data). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const am = a as JsonMap;
  const bm = b as JsonMap;
  let count = 0;
  for (const k in am) {
    if (!Object.prototype.hasOwnProperty.call(bm, k) || !deepEqual(am[k], bm[k])) return false;
    count++;
  }
  return Object.keys(bm).length === count;
}

export function hasKey(map: JsonMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}
