import type { TSchema } from '@sinclair/typebox';
import { isRequired, OrchKeyword } from '../schema/fields';
import { listItems, mapValues, nodeShape } from '../validation/schema-node';
import { retainKeysStrategy } from './directives';
import { errUnknownField, StrategicMergeError } from './strategic-merge-error';

/**
 * The merge metadata of one declared node, as Kubernetes' strategic merge reads it from Go struct
 * tags: the node's shape, its patch strategy and merge key. Built once per schema node (lazily, so
 * recursive declarations work) and cached; applying a patch only follows references.
 */
export interface PatchNode {
  /**
   * 'opaque' is a value with no declared fields to merge by: rawExtension and fieldsV1 (Go structs
   * whose JSON is free-form) and preserve-unknown-fields nodes (Go interface{}).
   */
  readonly shape: 'struct' | 'map' | 'list' | 'opaque' | 'scalar';
  /** Go type name used in messages (`PodSpec`, `RawExtension`, `interface`). */
  readonly typeName: string;
  /** The strategy besides retainKeys: 'merge', 'replace' or '' (none). */
  readonly strategy: string;
  /** The field carries the retainKeys strategy. */
  readonly retainKeys: boolean;
  /** Set when the declared strategy is not one strategic merge understands. */
  readonly strategyError: string | undefined;
  /** patchMergeKey of a list ('' when none). */
  readonly mergeKey: string;
  /** A struct's field node, if declared. */
  field(key: string): PatchNode | undefined;
  /** A map's value node or a list's item node. */
  readonly elements: PatchNode | undefined;
  /** `x-kubernetes-list-type` of a list ('' when not declared). */
  readonly listType: '' | 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys` of a list (empty when not declared). */
  readonly listMapKeys: readonly string[];
  /** `x-kubernetes-map-type` of a map or struct ('' when not declared). */
  readonly mapType: '' | 'granular' | 'atomic';
  /** The declared constant default of the node (undefined when none). */
  readonly defaultValue: unknown;
  /** The field is declared required (Go serializes it even when empty: it has no omitempty). */
  readonly required: boolean;
}

type Node = TSchema & Record<string, unknown>;

const cache = new WeakMap<object, PatchNode>();

/** The merge metadata of a declared node (cached per node). */
export function patchNodeOf(schema: TSchema): PatchNode {
  let node = cache.get(schema);
  if (node === undefined) {
    node = buildNode(schema as Node);
    cache.set(schema, node);
  }
  return node;
}

function buildNode(raw: Node): PatchNode {
  const shape = toShape(raw);
  const { strategy, retainKeys, error } = splitStrategy(raw['x-kubernetes-patch-strategy']);
  const mergeKey = raw['x-kubernetes-patch-merge-key'];
  let fields: Map<string, PatchNode> | undefined;
  let elements: PatchNode | undefined;
  const listType = raw['x-kubernetes-list-type'];
  const listMapKeys = raw['x-kubernetes-list-map-keys'];
  const mapType = raw['x-kubernetes-map-type'];
  return {
    shape,
    listType: listType === 'atomic' || listType === 'set' || listType === 'map' ? listType : '',
    listMapKeys: Array.isArray(listMapKeys) ? (listMapKeys as string[]) : [],
    mapType: mapType === 'atomic' || mapType === 'granular' ? mapType : '',
    defaultValue: raw.default,
    required: isRequired(raw),
    typeName: goTypeNameOf(raw, shape),
    strategy,
    retainKeys,
    strategyError: error,
    mergeKey: typeof mergeKey === 'string' ? mergeKey : '',
    field(key: string): PatchNode | undefined {
      if (shape !== 'struct') return undefined;
      fields ??= new Map();
      let f = fields.get(key);
      if (f === undefined) {
        const props = raw.properties as Record<string, TSchema>;
        if (!Object.prototype.hasOwnProperty.call(props, key)) return undefined;
        f = patchNodeOf(props[key]!);
        fields.set(key, f);
      }
      return f;
    },
    get elements(): PatchNode | undefined {
      if (elements === undefined) {
        if (shape === 'list') elements = patchNodeOf(listItems(raw));
        else if (shape === 'map') elements = patchNodeOf(mapValues(raw));
      }
      return elements;
    },
  };
}

function toShape(raw: Node): PatchNode['shape'] {
  switch (nodeShape(raw)) {
    case 'struct':
      return 'struct';
    case 'map':
      return 'map';
    case 'list':
      return 'list';
    case 'preserve':
      return 'opaque';
    default:
      return 'scalar';
  }
}

function goTypeNameOf(raw: Node, shape: PatchNode['shape']): string {
  const name = raw[OrchKeyword.name];
  if (typeof name === 'string') return name.slice(name.lastIndexOf('.') + 1);
  const special = raw[OrchKeyword.special];
  switch (special) {
    case 'rawExtension':
      return 'RawExtension';
    case 'fieldsV1':
      return 'FieldsV1';
    case 'intOrString':
      return 'IntOrString';
    case 'quantity':
      return 'Quantity';
    case 'time':
      return 'Time';
    case 'microTime':
      return 'MicroTime';
    case 'bytes':
      return 'slice';
  }
  switch (shape) {
    case 'map':
      return 'map';
    case 'list':
      return 'slice';
    case 'opaque':
      return 'interface';
    default:
      return raw.type === 'integer'
        ? 'int'
        : raw.type === 'number'
          ? 'float64'
          : String(raw.type ?? 'interface');
  }
}

/** Kubernetes' extractRetainKeysPatchStrategy over a comma-separated patchStrategy. */
function splitStrategy(value: unknown): { strategy: string; retainKeys: boolean; error: string | undefined } {
  if (typeof value !== 'string' || value === '') return { strategy: '', retainKeys: false, error: undefined };
  const parts = value.split(',');
  if (parts.length === 1) {
    return parts[0] === retainKeysStrategy
      ? { strategy: '', retainKeys: true, error: undefined }
      : { strategy: parts[0]!, retainKeys: false, error: undefined };
  }
  if (parts.length === 2) {
    if (parts[0] === retainKeysStrategy) return { strategy: parts[1]!, retainKeys: true, error: undefined };
    if (parts[1] === retainKeysStrategy) return { strategy: parts[0]!, retainKeys: true, error: undefined };
  }
  return { strategy: '', retainKeys: false, error: `unexpected patch strategy: [${parts.join(' ')}]` };
}

/**
 * The node of a field whose original and patched values are both maps (LookupPatchMetadataForStruct):
 * a struct's declared field or a map's values. Values of undeclared shape have no fields to merge by.
 */
export function lookupForMap(parent: PatchNode, key: string): PatchNode {
  return checked(lookupField(parent, key));
}

/** The list node of a field whose original and patched values are both lists (LookupPatchMetadataForSlice). */
export function lookupForList(parent: PatchNode, key: string): PatchNode {
  const node = lookupField(parent, key);
  if (node.shape !== 'list')
    throw new StrategicMergeError(`expected slice or array type, but got: ${node.typeName}`);
  return checked(node);
}

function checked(node: PatchNode): PatchNode {
  if (node.strategyError !== undefined) throw new StrategicMergeError(node.strategyError);
  return node;
}

function lookupField(parent: PatchNode, key: string): PatchNode {
  if (parent.shape === 'map') return parent.elements!;
  if (parent.shape === 'struct' || parent.typeName === 'RawExtension' || parent.typeName === 'FieldsV1') {
    const node = parent.field(key);
    if (node === undefined) throw errUnknownField(parent.typeName, key);
    return node;
  }
  throw new StrategicMergeError(
    `merging an object in json but data type is not map or struct, instead is: ${parent.typeName}`,
  );
}

/** The item node of a list node. */
export function itemsOf(list: PatchNode): PatchNode {
  const items = list.elements;
  if (items === undefined)
    throw new StrategicMergeError(`expected slice or array type, but got: ${list.typeName}`);
  return items;
}

/** Go's reflect Kind name of a node's type (`struct`, `map`, `interface`, `string`, ...). */
export function goKindName(node: PatchNode): string {
  switch (node.shape) {
    case 'struct':
    case 'map':
      return node.shape;
    case 'list':
      return 'slice';
    case 'opaque':
      return node.typeName === 'interface' ? 'interface' : 'struct';
    default:
      return /^[A-Z]/.test(node.typeName) ? 'struct' : node.typeName;
  }
}
