import type { PatchNode } from '../patch/patch-meta';
import { deepEqual, isMap, type JsonMap } from '../patch/json-value';
import { FieldPathSet } from './field-set';
import { indexItems } from './list-items';
import { fieldElement, type PathElement } from './path-element';
import { typeShapeOf, type TypeShape } from './type-shape';

/** What changed between two versions of an object, as field sets. */
export interface Comparison {
  added: FieldPathSet;
  modified: FieldPathSet;
  removed: FieldPathSet;
}

/**
 * Compares two versions of an object (structured-merge-diff's Compare): leaves added, changed or
 * removed; list items, and maps and lists that appear or disappear, are recorded themselves too. Structs
 * and required fields that appear are not (Go's zero value of the object has them), unless empty.
 */
export function compareObjects(lhs: unknown, rhs: unknown, node: PatchNode): Comparison {
  const out: Comparison = {
    added: new FieldPathSet(),
    modified: new FieldPathSet(),
    removed: new FieldPathSet(),
  };
  compareMap(lhs, rhs, typeShapeOf(node), [], out);
  return out;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isMap(value)) {
    for (const k in value) if ((value as JsonMap)[k] !== undefined) return false;
    return true;
  }
  return false;
}

function leaf(lhs: unknown, rhs: unknown, at: PathElement[], out: Comparison): void {
  if (lhs === undefined) out.added.insert(at);
  else if (rhs === undefined) out.removed.insert(at);
  else if (!deepEqual(lhs, rhs)) out.modified.insert(at);
}

function compareValue(
  lhs: unknown,
  rhs: unknown,
  node: PatchNode | undefined,
  at: PathElement[],
  out: Comparison,
  item = false,
): void {
  const shape = typeShapeOf(node);
  let asLeaf = shape.kind === 'leaf' || (isEmpty(lhs) && isEmpty(rhs));
  if (!asLeaf) {
    const list = shape.kind === 'associative' || shape.kind === 'set';
    const fits = (v: unknown): boolean =>
      v === undefined || v === null || (list ? Array.isArray(v) : isMap(v));
    asLeaf = !fits(lhs) || !fits(rhs);
  }
  if (asLeaf) {
    leaf(lhs, rhs, at, out);
    return;
  }
  if (shape.kind === 'associative' || shape.kind === 'set') compareList(lhs, rhs, shape, at, out);
  else compareMap(lhs, rhs, shape, at, out);
  // a struct, or a required field, exists in Go's zero value: only items and optional maps/lists appear
  if (!item && (shape.kind === 'struct' || shape.kind === 'deduced' || node?.required === true)) return;
  if (lhs === undefined) out.added.insert(at);
  else if (rhs === undefined) out.removed.insert(at);
}

function compareMap(lhs: unknown, rhs: unknown, shape: TypeShape, at: PathElement[], out: Comparison): void {
  const l = isMap(lhs) ? lhs : undefined;
  const r = isMap(rhs) ? rhs : undefined;
  const visit = (key: string): void => {
    let child: PatchNode | undefined;
    if (shape.kind === 'struct') {
      child = shape.node.field(key);
      if (child === undefined) return;
    } else if (shape.kind === 'map') child = shape.values;
    const lv = l?.[key];
    const rv = r?.[key];
    if (lv === undefined && rv === undefined) return;
    at.push(fieldElement(key));
    compareValue(lv, rv, child, at, out);
    at.pop();
  };
  if (r) for (const key in r) visit(key);
  if (l) for (const key in l) if (r === undefined || r[key] === undefined) visit(key);
}

function compareList(
  lhs: unknown,
  rhs: unknown,
  shape: Extract<TypeShape, { kind: 'associative' | 'set' }>,
  at: PathElement[],
  out: Comparison,
): void {
  const l = Array.isArray(lhs) ? indexItems(shape, lhs, at) : new Map<PathElement, unknown>();
  const r = Array.isArray(rhs) ? indexItems(shape, rhs, at) : new Map<PathElement, unknown>();
  for (const [pe, rv] of r) {
    at.push(pe);
    compareValue(l.get(pe), rv, shape.items, at, out, true);
    at.pop();
  }
  for (const [pe, lv] of l) {
    if (r.has(pe)) continue;
    at.push(pe);
    compareValue(lv, undefined, shape.items, at, out, true);
    at.pop();
  }
}
