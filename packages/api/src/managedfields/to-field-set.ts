import type { PatchNode } from '../patch/patch-meta';
import { isMap, type JsonMap } from '../patch/json-value';
import { FieldPathSet } from './field-set';
import { indexItems, TypedValueError } from './list-items';
import { fieldElement, printPath, type PathElement } from './path-element';
import { typeShapeOf } from './type-shape';

/**
 * The fields a (partial) object sets: every leaf (scalars, atomic values, empty structs and maps), every
 * map entry and every list item (`.` when it also has fields below it). Struct fields holding further
 * fields are parents only, as Kubernetes records an applied configuration. Fields a struct does not
 * declare are skipped, or with `strict` (an applied configuration, which Kubernetes converts to a
 * typed value) refused: `.spec.bogus: field not declared in schema`.
 */
export function toFieldSet(value: unknown, node: PatchNode, strict = false): FieldPathSet {
  const set = new FieldPathSet();
  visitFields(value, node, set, [], strict);
  return set;
}

function visitFields(
  value: unknown,
  node: PatchNode | undefined,
  set: FieldPathSet,
  at: PathElement[],
  strict: boolean,
): void {
  const shape = typeShapeOf(node);
  switch (shape.kind) {
    case 'struct':
    case 'map':
    case 'deduced': {
      if (!isMap(value)) return;
      for (const key in value) {
        const v = (value as JsonMap)[key];
        if (v === undefined) continue;
        let child: PatchNode | undefined;
        let declared = false;
        if (shape.kind === 'struct') {
          child = shape.node.field(key);
          if (child === undefined) {
            if (strict)
              throw new TypedValueError(
                `${printPath([...at, fieldElement(key)])}: field not declared in schema`,
              );
            continue;
          }
          declared = true;
        } else if (shape.kind === 'map') child = shape.values;
        else declared = true;
        const pe = fieldElement(key);
        if (visitChild(v, child, set, at, pe, strict) || !declared) set.addMember(pe);
      }
      return;
    }
    case 'associative':
    case 'set': {
      if (!Array.isArray(value)) return;
      const items = indexItems(shape, value, at);
      for (const [pe, item] of items) {
        visitChild(item, shape.items, set, at, pe, strict);
        set.addMember(pe);
      }
      return;
    }
  }
}

/** Visits one child value; true when the child itself is a leaf to record. */
function visitChild(
  value: unknown,
  node: PatchNode | undefined,
  set: FieldPathSet,
  at: PathElement[],
  pe: PathElement,
  strict: boolean,
): boolean {
  const shape = typeShapeOf(node);
  if (shape.kind === 'leaf' || value === null) return true;
  if (shape.kind === 'associative' || shape.kind === 'set') {
    if (!Array.isArray(value)) return true;
    if (value.length) {
      at.push(pe);
      visitFields(value, node, set.child(pe), at, strict);
      at.pop();
    }
    return false;
  }
  if (!isMap(value)) return true;
  let empty = true;
  for (const k in value) {
    if ((value as JsonMap)[k] !== undefined) {
      empty = false;
      break;
    }
  }
  if (empty) return true;
  at.push(pe);
  visitFields(value, node, set.child(pe), at, strict);
  at.pop();
  return false;
}
