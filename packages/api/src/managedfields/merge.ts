import type { PatchNode } from '../patch/patch-meta';
import { deepEqual, isMap, type JsonMap } from '../patch/json-value';
import { indexItems } from './list-items';
import { fieldElement, type PathElement } from './path-element';
import { typeShapeOf, type TypeShape } from './type-shape';

/**
 * Merges an applied configuration into the live object (structured-merge-diff's Merge): the applied
 * value wins where both set a field; structs, granular maps and associative lists merge member by
 * member; leaves and atomic values are replaced. A null in the configuration removes the field.
 * Subtrees of `live` are shared with the result, never changed; a subtree the configuration leaves as
 * it is stays the live one (its identity tells a comparison it is unchanged).
 */
export function mergeApplied(live: unknown, applied: unknown, node: PatchNode): unknown {
  return mergeValue(live, applied, node, []);
}

function mergeValue(lhs: unknown, rhs: unknown, node: PatchNode | undefined, at: PathElement[]): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined || lhs === null || rhs === null) return rhs;
  const shape = typeShapeOf(node);
  switch (shape.kind) {
    case 'struct':
    case 'map':
    case 'deduced':
      return isMap(lhs) && isMap(rhs) ? mergeMap(lhs, rhs, shape, at) : rhs;
    case 'associative':
    case 'set':
      return Array.isArray(lhs) && Array.isArray(rhs) ? mergeList(lhs, rhs, shape, at) : rhs;
    default:
      // an atomic value equal to the live one keeps the live value (and its sharing)
      return typeof rhs === 'object' && deepEqual(lhs, rhs) ? lhs : rhs;
  }
}

/** The merged map; `lhs` itself when the configuration changes nothing in it. */
function mergeMap(lhs: JsonMap, rhs: JsonMap, shape: TypeShape, at: PathElement[]): JsonMap {
  let out: JsonMap | undefined;
  for (const key in rhs) {
    const rv = rhs[key];
    if (rv === undefined) continue;
    if (rv === null) {
      if (lhs[key] !== undefined) delete (out ??= { ...lhs })[key];
      continue;
    }
    let child: PatchNode | undefined;
    if (shape.kind === 'struct') child = shape.node.field(key);
    else if (shape.kind === 'map') child = shape.values;
    at.push(fieldElement(key));
    const merged = mergeValue(lhs[key], rv, child, at);
    at.pop();
    if (merged !== lhs[key]) (out ??= { ...lhs })[key] = merged;
  }
  return out ?? lhs;
}

/**
 * Items present on both sides are merged and keep the applied order among themselves; live-only items
 * stay where they were relative to them, applied-only items come in their applied position.
 */
function mergeList(
  lhs: unknown[],
  rhs: unknown[],
  shape: Extract<TypeShape, { kind: 'associative' | 'set' }>,
  at: PathElement[],
): unknown[] {
  const l = indexItems(shape, lhs, at);
  const r = indexItems(shape, rhs, at);
  const lKeys = [...l.keys()];
  const rKeys = [...r.keys()];
  const shared = rKeys.filter((pe) => l.has(pe));
  let nextShared = 0;
  const out: unknown[] = [];
  const merged = (pe: PathElement): unknown => {
    at.push(pe);
    const v = mergeValue(l.get(pe), r.get(pe), shape.items, at);
    at.pop();
    return v;
  };
  let li = 0;
  let ri = 0;
  while (li < lKeys.length || ri < rKeys.length) {
    if (li < lKeys.length && ri < rKeys.length) {
      const pe = lKeys[li]!;
      if (pe === rKeys[ri]) {
        out.push(merged(pe));
        li++;
        ri++;
        if (shared[nextShared] === pe) nextShared++;
        continue;
      }
      if (r.has(pe) && nextShared < shared.length && shared[nextShared] !== pe) {
        // a shared item the applied order places later
        li++;
        continue;
      }
    }
    if (li < lKeys.length) {
      const pe = lKeys[li]!;
      if (!r.has(pe)) {
        out.push(l.get(pe));
        li++;
        continue;
      }
    }
    if (ri < rKeys.length) {
      const pe = rKeys[ri]!;
      out.push(merged(pe));
      ri++;
      if (shared[nextShared] === pe) nextShared++;
      continue;
    }
    li++;
  }
  // the live list itself when every item is the live one, in the same place
  return out.length === lhs.length && out.every((v, i) => v === lhs[i]) ? lhs : out;
}
