import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, type PatchStrategy } from '../schema/fields';

/**
 * How the engines (pruning, defaulting, validation walks) see one declared node. Classification
 * happens once, when a kind is compiled; nothing here runs per object.
 */
export type NodeShape =
  | 'struct'
  | 'list'
  | 'map'
  /** rawExtension, fieldsV1 and other preserve-unknown-fields nodes: contents are kept as they are. */
  | 'preserve'
  | 'quantity'
  | 'time'
  | 'microTime'
  | 'scalar';

type Node = TSchema & Record<string, unknown>;

export function nodeShape(schema: TSchema): NodeShape {
  const node = schema as Node;
  const special = node[OrchKeyword.special];
  if (
    special === 'rawExtension' ||
    special === 'fieldsV1' ||
    node['x-kubernetes-preserve-unknown-fields'] === true
  ) {
    return 'preserve';
  }
  if (special === 'quantity') return 'quantity';
  if (special === 'time') return 'time';
  if (special === 'microTime') return 'microTime';
  if (special !== undefined) return 'scalar';
  if (node.type === 'array') return 'list';
  if (node.type === 'object') {
    if (node.properties !== undefined) return 'struct';
    if (node.patternProperties !== undefined || typeof node.additionalProperties === 'object') return 'map';
    return 'preserve';
  }
  return 'scalar';
}

/** The declared fields of a struct node. */
export function structFields(schema: TSchema): [string, TSchema][] {
  return Object.entries(((schema as Node).properties ?? {}) as Record<string, TSchema>);
}

/** The properties object of a struct: shared by every use of the struct, so it keys compile caches. */
export function structIdentity(schema: TSchema): object {
  return (schema as Node).properties as object;
}

/** The item node of a list. */
export function listItems(schema: TSchema): TSchema {
  return (schema as Node).items as TSchema;
}

/** The value node of a map. */
export function mapValues(schema: TSchema): TSchema {
  const node = schema as Node;
  const pattern = node.patternProperties as Record<string, TSchema> | undefined;
  if (pattern !== undefined) {
    for (const k in pattern) return pattern[k]!;
  }
  return node.additionalProperties as TSchema;
}

export function isImmutable(schema: TSchema): boolean {
  return (schema as Node)[OrchKeyword.immutable] === true;
}

/** The keys identifying an item of a list (merge key or list-map keys), if the list has any. */
export function listKeys(schema: TSchema): readonly string[] | undefined {
  const node = schema as Node;
  const mapKeys = node['x-kubernetes-list-map-keys'] as string[] | undefined;
  if (mapKeys !== undefined && mapKeys.length > 0) return mapKeys;
  const mergeKey = node['x-kubernetes-patch-merge-key'] as string | undefined;
  const strategy = node['x-kubernetes-patch-strategy'] as PatchStrategy | undefined;
  if (mergeKey !== undefined && strategy !== undefined && strategy.includes('merge')) return [mergeKey];
  return undefined;
}

/** The node reached from `schema` by one step (a field, an index or a map key), if any. */
export function childNode(
  schema: TSchema,
  segment: string,
): { node: TSchema; shape: 'field' | 'index' | 'key' } | undefined {
  switch (nodeShape(schema)) {
    case 'struct': {
      const props = (schema as Node).properties as Record<string, TSchema>;
      const node = Object.prototype.hasOwnProperty.call(props, segment) ? props[segment] : undefined;
      return node === undefined ? undefined : { node, shape: 'field' };
    }
    case 'list':
      return { node: listItems(schema), shape: 'index' };
    case 'map':
      return { node: mapValues(schema), shape: 'key' };
    default:
      return undefined;
  }
}
