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
  compareMap(lhs, rhs, typeShapeOf(node), new Walk(out));
  return out;
}

const added = 0;
const modified = 1;
const removed = 2;

/**
 * The path being compared, with the levels of the three result sets along it looked up once per
 * level rather than from the root for every recorded path.
 */
class Walk {
  readonly at: PathElement[] = [];
  /** Per result set: levels[i] is the set below at[0..i), current for i <= valid. */
  private readonly levels: FieldPathSet[][];
  private readonly valid = [0, 0, 0];

  constructor(out: Comparison) {
    this.levels = [[out.added], [out.modified], [out.removed]];
  }

  push(pe: PathElement): void {
    this.at.push(pe);
  }

  pop(): void {
    this.at.pop();
    const depth = this.at.length;
    for (let k = 0; k < 3; k++) if (this.valid[k]! > depth) this.valid[k] = depth;
  }

  /** Records the current path in one of the result sets. */
  insert(which: number): void {
    const at = this.at;
    const last = at.length - 1;
    if (last < 0) return;
    const levels = this.levels[which]!;
    let v = this.valid[which]!;
    for (; v < last; v++) levels[v + 1] = levels[v]!.child(at[v]!);
    this.valid[which] = v;
    levels[last]!.addMember(at[last]!);
  }
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

function leaf(lhs: unknown, rhs: unknown, walk: Walk): void {
  if (lhs === undefined) walk.insert(added);
  else if (rhs === undefined) walk.insert(removed);
  else if (!deepEqual(lhs, rhs)) walk.insert(modified);
}

function compareValue(
  lhs: unknown,
  rhs: unknown,
  node: PatchNode | undefined,
  walk: Walk,
  item = false,
): void {
  // a subtree the new version shares with the old one (merges keep what they do not touch) is unchanged
  if (lhs === rhs) return;
  const shape = typeShapeOf(node);
  let asLeaf = shape.kind === 'leaf' || (isEmpty(lhs) && isEmpty(rhs));
  if (!asLeaf) {
    const list = shape.kind === 'associative' || shape.kind === 'set';
    asLeaf = !fits(lhs, list) || !fits(rhs, list);
  }
  if (asLeaf) {
    leaf(lhs, rhs, walk);
    return;
  }
  if (shape.kind === 'associative' || shape.kind === 'set') compareList(lhs, rhs, shape, walk);
  else compareMap(lhs, rhs, shape, walk);
  // a struct, or a required field, exists in Go's zero value: only items and optional maps/lists appear
  if (!item && (shape.kind === 'struct' || shape.kind === 'deduced' || node?.required === true)) return;
  if (lhs === undefined) walk.insert(added);
  else if (rhs === undefined) walk.insert(removed);
}

/** Whether a value can be compared as a list (`list`) or a map: absent, null or of that type. */
function fits(v: unknown, list: boolean): boolean {
  return v === undefined || v === null || (list ? Array.isArray(v) : isMap(v));
}

function compareMap(lhs: unknown, rhs: unknown, shape: TypeShape, walk: Walk): void {
  const l = isMap(lhs) ? lhs : undefined;
  const r = isMap(rhs) ? rhs : undefined;
  if (r) for (const key in r) compareField(l, r, key, shape, walk);
  if (l)
    for (const key in l) if (r === undefined || r[key] === undefined) compareField(l, r, key, shape, walk);
}

function compareField(
  l: JsonMap | undefined,
  r: JsonMap | undefined,
  key: string,
  shape: TypeShape,
  walk: Walk,
): void {
  let child: PatchNode | undefined;
  if (shape.kind === 'struct') {
    child = shape.node.field(key);
    if (child === undefined) return;
  } else if (shape.kind === 'map') child = shape.values;
  const lv = l?.[key];
  const rv = r?.[key];
  if (lv === undefined && rv === undefined) return;
  walk.push(fieldElement(key));
  compareValue(lv, rv, child, walk);
  walk.pop();
}

function compareList(
  lhs: unknown,
  rhs: unknown,
  shape: Extract<TypeShape, { kind: 'associative' | 'set' }>,
  walk: Walk,
): void {
  const l = Array.isArray(lhs) ? indexItems(shape, lhs, walk.at) : new Map<PathElement, unknown>();
  const r = Array.isArray(rhs) ? indexItems(shape, rhs, walk.at) : new Map<PathElement, unknown>();
  for (const [pe, rv] of r) {
    walk.push(pe);
    compareValue(l.get(pe), rv, shape.items, walk, true);
    walk.pop();
  }
  for (const [pe, lv] of l) {
    if (r.has(pe)) continue;
    walk.push(pe);
    compareValue(lv, undefined, shape.items, walk, true);
    walk.pop();
  }
}
