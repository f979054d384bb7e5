import type { TSchema } from '@sinclair/typebox';
import { invalid, type FieldError } from './field-error';
import {
  isImmutable,
  listItems,
  listKeys,
  mapValues,
  nodeShape,
  structFields,
  structIdentity,
} from './schema-node';

/** Kubernetes' detail for a changed immutable field (apimachinery FieldImmutableErrorMsg). */
export const FIELD_IMMUTABLE = 'field is immutable';

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/**
 * Deep equality as Kubernetes' semantic equality sees decoded values: an absent field equals an
 * empty string, list or map (Go's zero values and nil/empty slices and maps compare equal); numbers
 * and booleans are pointer-like here, so an absent one differs from 0 or false.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k in ao) if (!semanticEqual(ao[k], bo[k])) return false;
  for (const k in bo) if (!(k in ao) && !semanticEqual(undefined, bo[k])) return false;
  return true;
}

/**
 * Compares the fields declared `immutable` between an object and its stored version, anywhere in the
 * tree: inside structs, list items (matched by the list's merge or list-map keys, else by index) and
 * map values (by key). Items that exist on one side only are not compared. Each changed field gives
 * `<path>: Invalid value: <new>: field is immutable`.
 */
export type ImmutableValidator = (obj: unknown, old: unknown, out: FieldError[]) => void;

type NodeComparer = (nv: unknown, ov: unknown, path: string, out: FieldError[]) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function itemKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isObject(item)) return undefined;
  if (keys.length === 1) {
    const v = item[keys[0]!];
    return v === undefined ? undefined : JSON.stringify(v);
  }
  return JSON.stringify(keys.map((k) => item[k] ?? null));
}

class ImmutableCompiler {
  private readonly structs = new Map<object, NodeComparer | null>();
  private readonly pending = new Set<object>();

  node(schema: TSchema): NodeComparer | undefined {
    switch (nodeShape(schema)) {
      case 'struct':
        return this.struct(schema);
      case 'list':
        return this.list(schema);
      case 'map': {
        const item = this.node(mapValues(schema));
        if (item === undefined) return undefined;
        return (nv, ov, path, out) => {
          if (!isObject(nv) || !isObject(ov)) return;
          for (const k in nv) if (k in ov) item(nv[k], ov[k], `${path}[${k}]`, out);
        };
      }
      default:
        return undefined;
    }
  }

  private list(schema: TSchema): NodeComparer | undefined {
    const item = this.node(listItems(schema));
    if (item === undefined) return undefined;
    const keys = listKeys(schema);
    if (keys === undefined) {
      return (nv, ov, path, out) => {
        if (!Array.isArray(nv) || !Array.isArray(ov)) return;
        const n = Math.min(nv.length, ov.length);
        for (let i = 0; i < n; i++) item(nv[i], ov[i], `${path}[${i}]`, out);
      };
    }
    return (nv, ov, path, out) => {
      if (!Array.isArray(nv) || !Array.isArray(ov)) return;
      const olds = new Map<string, unknown>();
      for (const o of ov) {
        const k = itemKey(o, keys);
        if (k !== undefined && !olds.has(k)) olds.set(k, o);
      }
      for (let i = 0; i < nv.length; i++) {
        const k = itemKey(nv[i], keys);
        if (k !== undefined && olds.has(k)) item(nv[i], olds.get(k), `${path}[${i}]`, out);
      }
    };
  }

  private struct(schema: TSchema): NodeComparer | undefined {
    const id = structIdentity(schema);
    const cached = this.structs.get(id);
    if (cached !== undefined) return cached ?? undefined;
    if (this.pending.has(id)) return (nv, ov, path, out) => this.structs.get(id)?.(nv, ov, path, out);
    this.pending.add(id);
    // Fields in declaration order: immutable ones are compared whole, others walked into.
    const keys: string[] = [];
    const fns: (NodeComparer | null)[] = [];
    for (const [k, child] of structFields(schema)) {
      const fn = isImmutable(child) ? null : this.node(child);
      if (fn !== undefined) {
        keys.push(k);
        fns.push(fn);
      }
    }
    this.pending.delete(id);
    if (fns.length === 0) {
      this.structs.set(id, null);
      return undefined;
    }
    const join = (path: string, k: string): string => (path === '' ? k : `${path}.${k}`);
    const comparer: NodeComparer = (nv, ov, path, out) => {
      if (!isObject(nv) || !isObject(ov)) return;
      for (let i = 0; i < fns.length; i++) {
        const k = keys[i]!;
        const fn = fns[i]!;
        const a = nv[k];
        const b = ov[k];
        if (fn === null) {
          if (!semanticEqual(a, b)) out.push(invalid(join(path, k), a, FIELD_IMMUTABLE));
        } else if (a !== undefined && b !== undefined) fn(a, b, join(path, k), out);
      }
    };
    this.structs.set(id, comparer);
    return comparer;
  }
}

/** Compiles the immutable-field comparison of a declared node (usually a kind's root struct). */
export function compileImmutable(schema: TSchema): ImmutableValidator | undefined {
  const root = new ImmutableCompiler().node(schema);
  if (root === undefined) return undefined;
  return (obj, old, out) => root(obj, old, '', out);
}
