import type { PatchNode } from '../patch/patch-meta';
import { isMap, type JsonMap } from '../patch/json-value';
import type { FieldPathSet } from './field-set';
import { itemElement } from './list-items';
import { fieldElement, type PathElement } from './path-element';
import { typeShapeOf } from './type-shape';

/**
 * Removes from a value the list items and map entries that are members of `set` (structured-merge-diff's
 * RemoveItems); struct fields, and keys of undeclared values (which act as struct fields), stay. A list or map left empty is dropped. Returns a new value sharing
 * untouched subtrees.
 */
export function removeItems(value: unknown, set: FieldPathSet, node: PatchNode): unknown {
  return removeFrom(value, set, node, []);
}

function removeFrom(
  value: unknown,
  set: FieldPathSet,
  node: PatchNode | undefined,
  at: PathElement[],
): unknown {
  const shape = typeShapeOf(node);
  switch (shape.kind) {
    case 'struct':
    case 'map':
    case 'deduced': {
      if (!isMap(value)) return value;
      const out: JsonMap = {};
      let count = 0;
      let dropped = false;
      for (const key in value as JsonMap) {
        let v = (value as JsonMap)[key];
        if (v === undefined) continue;
        const pe = fieldElement(key);
        let child: PatchNode | undefined;
        if (shape.kind === 'struct') {
          child = shape.node.field(key);
        } else if (shape.kind === 'map') {
          child = shape.values;
          if (set.hasMember(pe)) {
            dropped = true;
            continue;
          }
        }
        const sub = set.childIfAny(pe);
        if (sub !== undefined && (shape.kind !== 'struct' || child !== undefined)) {
          at.push(pe);
          v = removeFrom(v, sub, child, at);
          at.pop();
          if (v === undefined) {
            dropped = true;
            continue;
          }
        }
        out[key] = v;
        count++;
      }
      return count || !dropped || shape.kind !== 'map' ? out : undefined;
    }
    case 'associative':
    case 'set': {
      if (!Array.isArray(value) || value.length === 0) return value;
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        let item = value[i];
        const pe = itemElement(shape, item, i, at);
        if (set.hasMember(pe)) continue;
        const sub = set.childIfAny(pe);
        if (sub !== undefined) {
          at.push(pe);
          item = removeFrom(item, sub, shape.items, at);
          at.pop();
        }
        out.push(item);
      }
      return out.length ? out : undefined;
    }
    default:
      return value;
  }
}
