import { isMap, type JsonMap } from '../patch/json-value';
import { printPath, valueElement, type Path, type PathElement } from './path-element';
import type { TypeShape } from './type-shape';

/** An object that cannot be read against its declaration (an item without its key, duplicate items). */
export class TypedValueError extends Error {}

type ListShape = Extract<TypeShape, { kind: 'associative' | 'set' }>;
type AssociativeShape = Extract<TypeShape, { kind: 'associative' }>;

/** The path element identifying one item of an associative list or set. */
export function itemElement(shape: ListShape, item: unknown, index: number, at: Path): PathElement {
  if (shape.kind === 'set') return valueElement(item);
  if (!isMap(item)) {
    throw new TypedValueError(
      `${printPath(at)}: element ${index}: associative list with keys may not have non-map elements`,
    );
  }
  if (shape.sortedKeys.length === 1) return singleKeyElement(shape, item as JsonMap, index, at);
  // `k:` and the key fields as JSON, names sorted (spelled from the shape's precomputed labels)
  let out = 'k:{';
  for (let i = 0; i < shape.sortedKeys.length; i++) {
    const v = keyValue(shape, item as JsonMap, shape.sortedKeys[i]!);
    if (v === undefined) throw missingKey(shape, item as JsonMap, index, at);
    out += (i ? ',' : '') + shape.keyLabels[i] + JSON.stringify(v);
  }
  return out + '}';
}

/** Bound on the elements remembered per list (key values are data: names, ports). */
const maxRememberedElements = 4096;

/**
 * The element of an item of a list with one key field: remembered per key value, so an item has the
 * same string each time it is read (maps and objects keyed by it hash it once).
 */
function singleKeyElement(shape: AssociativeShape, item: JsonMap, index: number, at: Path): PathElement {
  const v = keyValue(shape, item, shape.sortedKeys[0]!);
  if (v === undefined) throw missingKey(shape, item, index, at);
  const scalar = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  let pe = scalar ? shape.elements.get(v) : undefined;
  if (pe === undefined) {
    pe = 'k:{' + shape.keyLabels[0]! + JSON.stringify(v) + '}';
    if (scalar) {
      if (shape.elements.size >= maxRememberedElements) shape.elements.clear();
      shape.elements.set(v, pe);
    }
  }
  return pe;
}

function keyValue(shape: AssociativeShape, item: JsonMap, key: string): unknown {
  const v = item[key];
  if (v !== undefined && v !== null) return v;
  const d = shape.items.field(key)?.defaultValue;
  return d === null ? undefined : d;
}

function missingKey(shape: AssociativeShape, item: JsonMap, index: number, at: Path): TypedValueError {
  const k = shape.keys.find((key) => keyValue(shape, item, key) === undefined)!;
  return new TypedValueError(
    `${printPath(at)}: element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`,
  );
}

/** The items of a list by their path elements, in order; duplicates are refused as Kubernetes does. */
export function indexItems(shape: ListShape, list: unknown[], at: Path): Map<PathElement, unknown> {
  const out = new Map<PathElement, unknown>();
  for (let i = 0; i < list.length; i++) {
    const pe = itemElement(shape, list[i], i, at);
    if (out.has(pe)) {
      if (shape.kind === 'set') continue;
      throw new TypedValueError(`${printPath(at)}: duplicate entries for key ${printKey(pe)}`);
    }
    out.set(pe, list[i]);
  }
  return out;
}

function printKey(pe: PathElement): string {
  const key = JSON.parse(pe.slice(2)) as Record<string, unknown>;
  return (
    '[' +
    Object.keys(key)
      .map((k) => `${k}=${JSON.stringify(key[k])}`)
      .join(',') +
    ']'
  );
}
