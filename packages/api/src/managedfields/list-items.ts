import { isMap, type JsonMap } from '../patch/json-value';
import { keyElement, printPath, valueElement, type Path, type PathElement } from './path-element';
import type { TypeShape } from './type-shape';

/** An object that cannot be read against its declaration (an item without its key, duplicate items). */
export class TypedValueError extends Error {}

type ListShape = Extract<TypeShape, { kind: 'associative' | 'set' }>;

/** The path element identifying one item of an associative list or set. */
export function itemElement(shape: ListShape, item: unknown, index: number, at: Path): PathElement {
  if (shape.kind === 'set') return valueElement(item);
  if (!isMap(item)) {
    throw new TypedValueError(
      `${printPath(at)}: element ${index}: associative list with keys may not have non-map elements`,
    );
  }
  const keys: [string, unknown][] = [];
  for (const k of shape.keys) {
    let v = (item as JsonMap)[k];
    if (v === undefined || v === null) v = shape.items.field(k)?.defaultValue;
    if (v === undefined || v === null) {
      throw new TypedValueError(
        `${printPath(at)}: element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`,
      );
    }
    keys.push([k, v]);
  }
  return keyElement(keys);
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
