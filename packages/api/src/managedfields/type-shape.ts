import type { PatchNode } from '../patch/patch-meta';

/**
 * How server-side apply sees a declared node (structured-merge-diff's schema, read from the merge
 * metadata): a leaf (scalars and atomic structs, maps and lists), a struct whose fields are owned one
 * by one, a granular map whose entries are owned one by one, an associative list (items identified by
 * key fields), a set (items identified by value), or an undeclared value (`deduced`: maps granular,
 * lists atomic).
 */
export type TypeShape =
  | { readonly kind: 'leaf' }
  | { readonly kind: 'struct'; readonly node: PatchNode }
  | { readonly kind: 'map'; readonly values: PatchNode | undefined }
  | { readonly kind: 'deduced' }
  | {
      readonly kind: 'associative';
      /** The key fields as declared. */
      readonly keys: readonly string[];
      /** The key fields sorted by name and `"<name>":` for each: how an item's path element spells them. */
      readonly sortedKeys: readonly string[];
      readonly keyLabels: readonly string[];
      readonly items: PatchNode;
      /** Path elements of items by their key value, made once (lists with one key field only). */
      readonly elements: Map<string | number | boolean, string>;
    }
  | { readonly kind: 'set'; readonly items: PatchNode };

const leaf: TypeShape = { kind: 'leaf' };
const deduced: TypeShape = { kind: 'deduced' };
const shapes = new WeakMap<PatchNode, TypeShape>();

/** The shape of a node (undefined: a value with no declaration). Cached per node. */
export function typeShapeOf(node: PatchNode | undefined): TypeShape {
  if (node === undefined) return deduced;
  let shape = shapes.get(node);
  if (shape === undefined) {
    shape = computeShape(node);
    shapes.set(node, shape);
  }
  return shape;
}

function computeShape(node: PatchNode): TypeShape {
  switch (node.shape) {
    case 'struct':
      return node.mapType === 'atomic' ? leaf : { kind: 'struct', node };
    case 'map':
      return node.mapType === 'atomic' ? leaf : { kind: 'map', values: node.elements };
    case 'opaque':
      // RawExtension and FieldsV1 are Go structs with custom JSON: Kubernetes treats them as atomic
      return node.typeName === 'interface' ? deduced : leaf;
    case 'list':
      return listShape(node);
    default:
      return leaf;
  }
}

/**
 * Lists follow `x-kubernetes-list-type`; without one, a list with the merge patch strategy is
 * associative by its merge key (or a set of scalars without one), any other list is atomic.
 */
function listShape(node: PatchNode): TypeShape {
  const items = node.elements!;
  const scalarItems = items.shape === 'scalar';
  switch (node.listType) {
    case 'atomic':
      return leaf;
    case 'set':
      return scalarItems ? { kind: 'set', items } : leaf;
    case 'map':
      return node.listMapKeys.length ? associative(node.listMapKeys, items) : leaf;
  }
  if (node.strategy === 'merge') {
    if (node.mergeKey) return associative([node.mergeKey], items);
    if (scalarItems) return { kind: 'set', items };
  }
  return leaf;
}

function associative(keys: readonly string[], items: PatchNode): TypeShape {
  const sortedKeys = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    kind: 'associative',
    keys,
    sortedKeys,
    keyLabels: sortedKeys.map((k) => JSON.stringify(k) + ':'),
    items,
    elements: new Map(),
  };
}
