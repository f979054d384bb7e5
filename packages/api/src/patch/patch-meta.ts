import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../schema/fields';
import { listItems, mapValues, nodeShape } from '../validation/schema-node';
import { mergeDirective, replaceDirective, retainKeysStrategy } from './directives';
import { errUnknownField, StrategicMergeError } from './strategic-merge-error';

/**
 * The merge metadata of one declared node, as strategic merge reads it from Go struct tags in
 * Kubernetes: the node's shape, its patch strategy and merge key. Built lazily once per schema node
 * and cached, so applying a patch only follows references.
 */
export interface PatchNode {
  readonly shape: 'struct' | 'map' | 'list' | 'preserve' | 'scalar';
  /** Go type name used in messages (`PodSpec`). */
  readonly typeName: string;
  /** The strategy besides retainKeys: 'merge', 'replace' or '' (none). */
  readonly strategy: string;
  /** The field carries the retainKeys strategy. */
  readonly retainKeys: boolean;
  /** Set when the declared strategy is not one strategic merge understands. */
  readonly strategyError?: string;
  /** patchMergeKey of a list ('' when none). */
  readonly mergeKey: string;
  /** The node of a struct's field, a map's values or a list's items. */
  child(key: string): PatchNode | undefined;
  readonly elements: PatchNode;
}

type Node = TSchema & Record<string, unknown>;

const cache = new WeakMap<object, PatchNode>();

/** The merge metadata of a declared node (cached per node). */
export function patchNodeOf(schema: TSchema): PatchNode {
  let node = cache.get(schema);
  if (node === undefined) {
    node = buildNode(schema);
    cache.set(schema, node);
  }
  return node;
}

/** A node for values nothing is declared about: merged as plain JSON, lists replaced. */
const plainJson: PatchNode = {
  shape: 'preserve',
  typeName: 'interface',
  strategy: '',
  retainKeys: false,
  mergeKey: '',
  child: () => plainJson,
  get elements() {
    return plainJson;
  },
};

function buildNode(schema: TSchema): PatchNode {
  const raw = schema as Node;
  const shape = toShape(nodeShape(schema));
  const { strategy, retainKeys, error } = splitStrategy(raw['x-kubernetes-patch-strategy']);
  if (shape === 'preserve') {
    return strategy === '' && !retainKeys && error === undefined
      ? plainJson
      : { ...plainJson, strategy, retainKeys, ...(error !== undefined ? { strategyError: error } : {}) };
  }
  const typeName = goTypeNameOf(raw, shape);
  const mergeKey =
    typeof raw['x-kubernetes-patch-merge-key'] === 'string' ? raw['x-kubernetes-patch-merge-key'] : '';
  let fields: Map<string, PatchNode> | undefined;
  let elements: PatchNode | undefined;
  const node: PatchNode = {
    shape,
    typeName,
    strategy,
    retainKeys,
    ...(error !== undefined ? { strategyError: error } : {}),
    mergeKey,
    child(key: string): PatchNode | undefined {
      if (shape === 'struct') {
        fields ??= new Map();
        let f = fields.get(key);
        if (f === undefined) {
          const props = raw.properties as Record<string, TSchema>;
          if (!Object.prototype.hasOwnProperty.call(props, key)) return undefined;
          f = patchNodeOf(props[key]!);
          fields.set(key, f);
        }
        return f;
      }
      return shape === 'map' || shape === 'list' ? this.elements : undefined;
    },
    get elements(): PatchNode {
      if (elements === undefined) {
        if (shape === 'list') elements = patchNodeOf(listItems(schema));
        else if (shape === 'map') elements = patchNodeOf(mapValues(schema));
        else elements = plainJson;
      }
      return elements;
    },
  };
  return node;
}

function toShape(shape: ReturnType<typeof nodeShape>): PatchNode['shape'] {
  switch (shape) {
    case 'struct':
    case 'map':
    case 'list':
    case 'preserve':
      return shape;
    default:
      return 'scalar';
  }
}

function goTypeNameOf(raw: Node, shape: PatchNode['shape']): string {
  const name = raw[OrchKeyword.name];
  if (typeof name === 'string') return name.slice(name.lastIndexOf('.') + 1);
  switch (shape) {
    case 'map':
      return 'map';
    case 'list':
      return 'slice';
    default:
      return typeof raw.type === 'string' ? raw.type : 'interface';
  }
}

/** Kubernetes' extractRetainKeysPatchStrategy over a comma-separated patchStrategy. */
function splitStrategy(value: unknown): { strategy: string; retainKeys: boolean; error?: string } {
  if (typeof value !== 'string' || value === '') return { strategy: '', retainKeys: false };
  const parts = value.split(',');
  if (parts.length === 1) {
    return parts[0] === retainKeysStrategy
      ? { strategy: '', retainKeys: true }
      : { strategy: parts[0]!, retainKeys: false };
  }
  if (parts.length === 2) {
    if (parts[0] === retainKeysStrategy) return { strategy: parts[1]!, retainKeys: true };
    if (parts[1] === retainKeysStrategy) return { strategy: parts[0]!, retainKeys: true };
  }
  return { strategy: '', retainKeys: false, error: `unexpected patch strategy: [${parts.join(' ')}]` };
}

/** A field's node and merge metadata, looked up for merging two maps (LookupPatchMetadataForStruct). */
export function lookupForMap(parent: PatchNode, key: string): PatchNode {
  const node = lookupField(parent, key, 'map');
  if (node.strategyError !== undefined) throw new StrategicMergeError(node.strategyError);
  return node;
}

/** A field's node, looked up for merging two lists (LookupPatchMetadataForSlice); the list node is returned. */
export function lookupForList(parent: PatchNode, key: string): PatchNode {
  const node = lookupField(parent, key, 'list');
  if (node.shape !== 'list' && node.shape !== 'preserve') {
    throw new StrategicMergeError(`expected slice or array type, but got: ${node.typeName}`);
  }
  if (node.strategyError !== undefined) throw new StrategicMergeError(node.strategyError);
  return node;
}

function lookupField(parent: PatchNode, key: string, want: 'map' | 'list'): PatchNode {
  switch (parent.shape) {
    case 'struct': {
      const node = parent.child(key);
      if (node === undefined) throw errUnknownField(parent.typeName, key);
      return node;
    }
    case 'map':
    case 'preserve':
      return parent.elements;
    default:
      throw new StrategicMergeError(
        want === 'map'
          ? `merging an object in json but data type is not map or struct, instead is: ${parent.typeName}`
          : `expected slice or array type, but got: ${parent.typeName}`,
      );
  }
}

/** The merge metadata of a list node's values: strategy and key. */
export function isMergeList(node: PatchNode): boolean {
  return node.strategy === mergeDirective;
}

export function isReplaceMap(node: PatchNode): boolean {
  return node.strategy === replaceDirective;
}
