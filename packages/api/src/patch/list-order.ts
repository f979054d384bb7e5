import { deleteDirective, directiveMarker } from './directives';
import { goStableSort } from './go-stable-sort';
import { goSprint, type NumberDecoding } from './go-format';
import { goKind, hasKey, isMap, type GoKind, type JsonMap } from './json-value';
import { errBadArgType, errNoListOfLists, errNoMergeKey, StrategicMergeError } from './strategic-merge-error';

/**
 * Kubernetes' rules for the order of a merged list and the helpers they rest on. The precedence is
 * `$setElementOrder` > order in the patch > order in the live list; items only on the server are
 * interleaved with patch items where the live list orders both, otherwise patch items come first.
 */

/** The Go element type shared by the items of the given lists (sliceElementType). */
export function sliceElementType(...lists: (readonly unknown[] | undefined)[]): GoKind {
  let prev: GoKind | undefined;
  for (const list of lists) {
    if (list === undefined) continue;
    for (const v of list) {
      const current = goKind(v);
      if (prev === undefined) {
        if (current === 'nil') {
          throw new StrategicMergeError('runtime error: invalid memory address or nil pointer dereference');
        }
        prev = current;
        if (prev === 'slice') throw errNoListOfLists();
      } else if (prev !== current) {
        throw new StrategicMergeError(
          `list element types are not identical: ${goSprint(lists.map((l) => l ?? []))}`,
        );
      }
    }
  }
  if (prev === undefined) throw new StrategicMergeError('no elements in any of the given slices');
  return prev;
}

/** The item's merge key value for maps, the item itself for primitives. */
function orderKey(item: unknown, mergeKey: string, kind: GoKind): unknown {
  if (kind !== 'map') return item;
  return isMap(item) ? (item[mergeKey] ?? null) : null;
}

/** Position of an item in a list, by merge key for maps and by value for primitives; -1 if absent. */
export function indexOf(list: readonly unknown[], item: unknown, mergeKey: string, kind: GoKind): number {
  const key = orderKey(item, mergeKey, kind);
  for (let i = 0; i < list.length; i++) if (orderKey(list[i], mergeKey, kind) === key) return i;
  return -1;
}

/** The first map of the list whose `key` equals `value`, with its position. */
export function findMapByKey(
  list: readonly unknown[],
  key: string,
  value: unknown,
): { map: JsonMap; index: number } | undefined {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isMap(v)) throw new StrategicMergeError(`value for key ${i} is not a map.`);
    if (hasKey(v, key) && v[key] === value) return { map: v, index: i };
  }
  return undefined;
}

export function validateMergeKeyInLists(mergeKey: string, ...lists: readonly unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map', item);
      if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** Splits list items into those without and those with `$patch: delete`. */
export function extractToDeleteItems(list: readonly unknown[]): { keep: unknown[]; toDelete: unknown[] } {
  const keep: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (hasKey(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v);
    else keep.push(v);
  }
  return { keep, toDelete };
}

/** Sorts `toSort` by the positions of its items in `order`; deletion directives go last. */
export function normalizeSliceOrder(
  toSort: readonly unknown[],
  order: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  let items = [...toSort];
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order as unknown[]);
    ({ keep: items, toDelete } = extractToDeleteItems(items));
  }
  goStableSort(items, (a, b) => {
    const ia = indexOf(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexOf(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  if (toDelete.length > 0) items = items.concat(toDelete);
  return items;
}

/**
 * Merges the sorted server-only items (`left`) into the sorted patch items (`right`): a server-only
 * item goes first only when the live list has it before the patch item it is compared with.
 */
export function mergeSortedSlice(
  left: readonly unknown[],
  right: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const size = left.length + right.length;
  const out = new Array<unknown>(size);
  let i = 0;
  let j = 0;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) {
      out[k] = right[j++];
    } else if (j >= right.length && i < left.length) {
      out[k] = left[i++];
    } else {
      const li = indexOf(serverOrder, left[i], mergeKey, kind);
      const ri = indexOf(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out[k] = left[i++];
      else out[k] = right[j++];
    }
  }
  return out;
}

export function normalizeElementOrder(
  patch: readonly unknown[],
  serverOnly: readonly unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

/** Splits items into those present in `partitionBy` and the others. */
export function partitionPrimitives(
  items: readonly unknown[],
  partitionBy: readonly unknown[],
): { patch: unknown[]; serverOnly: unknown[] } {
  const inPatch = new Set(partitionBy);
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of items) (inPatch.has(v) ? patch : serverOnly).push(v);
  return { patch, serverOnly };
}

export function partitionMaps(
  items: readonly unknown[],
  partitionBy: readonly unknown[],
  mergeKey: string,
): { patch: unknown[]; serverOnly: unknown[] } {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of items) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (!hasKey(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (findMapByKey(partitionBy, mergeKey, v[mergeKey]) !== undefined ? patch : serverOnly).push(v);
  }
  return { patch, serverOnly };
}

/** Partitions by merge key for lists of maps, by value for primitives. */
export function partitionByPresence(
  items: readonly unknown[],
  partitionBy: readonly unknown[],
  mergeKey: string,
): { patch: unknown[]; serverOnly: unknown[] } {
  return mergeKey === ''
    ? partitionPrimitives(items, partitionBy)
    : partitionMaps(items, partitionBy, mergeKey);
}

/** Whether two items have the same merge key value (the same value for primitives). */
export function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  if (!isMap(left)) throw errBadArgType('map', left);
  if (!isMap(right)) throw errBadArgType('map', right);
  if (!hasKey(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

/** Go's in-place deduplication of scalars (keeps the first occurrence's slot, fills it from the end). */
export function deduplicateScalars(list: unknown[]): unknown[] {
  const s = list;
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/** Sorts scalars by their `%v` text, as Kubernetes orders retainKeys lists and list diffs. */
export function sortScalars(list: unknown[], numbers: NumberDecoding = 'float64'): unknown[] {
  return goStableSort(list, (a, b) => goSprint(a, numbers) < goSprint(b, numbers));
}
