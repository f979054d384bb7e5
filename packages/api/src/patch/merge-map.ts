import {
  deleteDirective,
  deleteFromPrimitiveListDirectivePrefix,
  directiveMarker,
  mergeDirective,
  replaceDirective,
  retainKeysDirective,
  setElementOrderDirectivePrefix,
} from './directives';
import { goSprint } from './go-format';
import { cloneJson, deepEqual, goKind, hasKey, isMap, type JsonMap } from './json-value';
import {
  deduplicateScalars,
  extractToDeleteItems,
  mergeKeyValueEqual,
  normalizeElementOrder,
  partitionByPresence,
  sliceElementType,
} from './list-order';
import { goKindName, itemsOf, lookupForList, lookupForMap, type PatchNode } from './patch-meta';
import { SharedSlice } from './shared-slice';
import {
  errBadArgType,
  errBadPatchFormatForPrimitiveList,
  errBadPatchFormatForRetainKeys,
  errBadPatchFormatForSetElementOrderList,
  errBadPatchType,
  errNoMergeKey,
  errSetElementOrderMismatch,
  StrategicMergeError,
} from './strategic-merge-error';

/**
 * The merge of a patch into a document, as Kubernetes' strategicpatch mergeMap does it. Two modes:
 * - applying a patch (server side): parallel lists (`$deleteFromPrimitiveList`, `$setElementOrder`,
 *   `$retainKeys`) are executed and nulls delete;
 * - combining two patches (client side, three-way diff): directives are carried over and nulls kept.
 *
 * `original` is worked on in place (callers pass their own copy); the patch is only read, and every
 * value taken from it is copied, so the result never shares structure with the patch.
 */
export interface MergeOptions {
  /** Execute parallel lists (true when applying a patch). */
  readonly mergeParallelList: boolean;
  /** Drop nulls the original has no field for (true when applying a patch). */
  readonly ignoreUnmatchedNulls: boolean;
}

export const applyOptions: MergeOptions = { mergeParallelList: true, ignoreUnmatchedNulls: true };
export const combineOptions: MergeOptions = { mergeParallelList: false, ignoreUnmatchedNulls: false };

export function mergeMap(
  original: JsonMap,
  patch: JsonMap,
  schema: PatchNode,
  options: MergeOptions,
): JsonMap {
  if (hasKey(patch, directiveMarker)) return directiveInMap(patch[directiveMarker], patch, options);

  const done = new Set<string>();
  applyRetainKeysDirective(original, patch, options, done);
  mergePatchIntoOriginal(original, patch, schema, options, done);

  for (const patchKey in patch) {
    if (!hasKey(patch, patchKey) || done.has(patchKey)) continue;
    const patchV = patch[patchKey];
    let k = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListDirectivePrefix)) {
      if (!options.mergeParallelList) {
        original[patchKey] = cloneJson(patchV);
        continue;
      }
      k = extractKey(patchKey, deleteFromPrimitiveListDirectivePrefix);
      isDeleteList = true;
    }

    if (patchV === null) {
      delete original[k];
      if (options.ignoreUnmatchedNulls) continue;
    }

    if (!hasKey(original, k) || goKind(original[k]) !== goKind(patchV)) {
      if (!isDeleteList) setTaken(original, k, patchV, options);
      continue;
    }

    const originalV = original[k];
    if (isMap(originalV)) {
      const field = lookupForMap(schema, k);
      if (field.strategy === replaceDirective) setTaken(original, k, patchV, options);
      else original[k] = mergeMap(originalV, patchV as JsonMap, field, options);
    } else if (Array.isArray(originalV)) {
      const field = lookupForList(schema, k);
      original[k] = mergeSliceHandler(originalV, patchV as unknown[], field, isDeleteList, options).merged;
    } else {
      setTaken(original, k, patchV, options);
    }
  }
  return original;
}

/** `$patch` in a map: replace uses the patch as it is, delete leaves an empty map. */
function directiveInMap(directive: unknown, patch: JsonMap, options: MergeOptions): JsonMap {
  if (directive === replaceDirective) {
    const out: JsonMap = {};
    for (const k in patch) if (k !== directiveMarker && hasKey(patch, k)) out[k] = patch[k];
    return taken(out, options) as JsonMap;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

function setTaken(original: JsonMap, key: string, patchV: unknown, options: MergeOptions): void {
  const v = taken(patchV, options);
  if (v === undefined) delete original[key];
  else original[key] = v;
}

/**
 * A value taken from the patch where nothing is merged into (new field, new list item, replaced list).
 * When applying, nulls are discarded and directives removed as the apiserver's decoding would drop
 * them: maps carrying `$patch: delete` vanish, `$patch: replace` keeps the map's content, and
 * parallel-list keys are dropped. When combining patches, the value is kept as it is.
 */
function taken(value: unknown, options: MergeOptions): unknown {
  if (!options.ignoreUnmatchedNulls) return cloneJson(value);
  return clean(value);
}

function clean(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) {
      const c = clean(v);
      if (c !== undefined) out.push(c);
    }
    return out;
  }
  const map = value as JsonMap;
  if (hasKey(map, directiveMarker) && map[directiveMarker] !== replaceDirective) return undefined;
  const out: JsonMap = {};
  for (const k in map) {
    if (!hasKey(map, k)) continue;
    const v = map[k];
    if (v === null || isDirectiveKey(k)) continue;
    const c = clean(v);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

function isDirectiveKey(key: string): boolean {
  return (
    key === directiveMarker ||
    key === retainKeysDirective ||
    key.startsWith(setElementOrderDirectivePrefix) ||
    key.startsWith(deleteFromPrimitiveListDirectivePrefix)
  );
}

/** `$deleteFromPrimitiveList/finalizers` → `finalizers`. */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListDirectivePrefix) throw errBadPatchFormatForPrimitiveList();
    throw errBadPatchFormatForSetElementOrderList();
  }
  return key.slice(slash + 1);
}

/**
 * `$retainKeys`: keys of the original missing from the list are cleared; every key the patch sets
 * must be in the list.
 */
function applyRetainKeysDirective(
  original: JsonMap,
  patch: JsonMap,
  options: MergeOptions,
  done: Set<string>,
): void {
  if (!hasKey(patch, retainKeysDirective)) return;
  done.add(retainKeysDirective);
  const retain = patch[retainKeysDirective];
  if (!options.mergeParallelList) {
    if (hasKey(original, retainKeysDirective)) {
      if (!deepEqual(original[retainKeysDirective], retain)) {
        throw new StrategicMergeError(
          `${goSprint(original[retainKeysDirective])} and ${goSprint(retain)} are not deep equal: this may happen when calculating the 3-way diff patch`,
        );
      }
    } else {
      original[retainKeysDirective] = cloneJson(retain);
    }
    return;
  }
  if (!Array.isArray(retain)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set<unknown>(retain);
  for (const k in patch) {
    if (!hasKey(patch, k) || k === retainKeysDirective) continue;
    if (
      patch[k] === null ||
      k.startsWith(deleteFromPrimitiveListDirectivePrefix) ||
      k.startsWith(setElementOrderDirectivePrefix)
    ) {
      continue;
    }
    if (!keep.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<list>`: merges the list it names and orders the result by it (the precedence is
 * the directive, then the patch, then the live list; items only on the server come first where the
 * live list does not order them).
 */
function mergePatchIntoOriginal(
  original: JsonMap,
  patch: JsonMap,
  schema: PatchNode,
  options: MergeOptions,
  done: Set<string>,
): void {
  for (const key in patch) {
    if (!hasKey(patch, key) || !key.startsWith(setElementOrderDirectivePrefix)) continue;
    const setOrder = patch[key];
    if (!options.mergeParallelList) {
      if (hasKey(original, key)) {
        if (!deepEqual(original[key], setOrder)) throw errBadPatchFormatForSetElementOrderList();
      } else {
        original[key] = cloneJson(setOrder);
      }
    }
    done.add(key);

    if (!Array.isArray(setOrder)) throw errBadArgType('slice', setOrder);
    const listKey = extractKey(key, setElementOrderDirectivePrefix);
    const foundOriginal = hasKey(original, listKey);
    const foundPatch = hasKey(patch, listKey) && !done.has(listKey);
    let originalList: unknown[] | undefined;
    let patchList: unknown[] | undefined;
    if (foundOriginal) {
      if (!Array.isArray(original[listKey])) throw errBadArgType('slice', original[listKey]);
      originalList = original[listKey] as unknown[];
    }
    if (foundPatch) {
      if (!Array.isArray(patch[listKey])) throw errBadArgType('slice', patch[listKey]);
      patchList = patch[listKey] as unknown[];
    }
    const field = lookupForList(schema, listKey);
    validatePatchWithSetOrderList(patchList ?? [], setOrder, field.mergeKey);

    let merged: MergedList;
    if (originalList !== undefined && patchList === undefined) {
      merged = { merged: originalList, originalView: originalList };
    } else if (originalList === undefined && patchList !== undefined) {
      merged = { merged: taken(patchList, options) as unknown[], originalView: [] };
    } else if (originalList !== undefined && patchList !== undefined) {
      merged = mergeSliceHandler(originalList, patchList, field, false, options);
    } else {
      continue;
    }

    const { patch: patchItems, serverOnly } = partitionByPresence(merged.merged, setOrder, field.mergeKey);
    const kind = sliceElementType(originalList, patchList);
    // Server-only items are placed by the original list as the merge left its backing array.
    original[listKey] = normalizeElementOrder(
      patchItems,
      serverOnly,
      setOrder,
      merged.originalView,
      field.mergeKey,
      kind,
    );
    done.add(listKey);
  }
}

/**
 * The patch list must follow the relative order of `$setElementOrder` and name only items it lists
 * (deletions and other directive items aside).
 */
function validatePatchWithSetOrderList(patchList: unknown[], setOrder: unknown[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey !== '' ? extractToDeleteItems(patchList).keep : patchList;
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < setOrder.length) {
    const item = nonDelete[p];
    if (isMap(item) && hasKey(item, directiveMarker)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrder[s], mergeKey)) p++;
    s++;
  }
  if (p < nonDelete.length && s >= setOrder.length) throw errSetElementOrderMismatch(patchList, setOrder);
}

/** A merged list, and the original list as Kubernetes sees it afterwards (see SharedSlice). */
interface MergedList {
  merged: unknown[];
  originalView: unknown[];
}

function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  field: PatchNode,
  isDeleteList: boolean,
  options: MergeOptions,
): MergedList {
  // Deletion lists delete from the list whatever its strategy.
  if (field.strategy !== mergeDirective && !isDeleteList) {
    return { merged: taken(patch, options) as unknown[], originalView: original };
  }
  return mergeSlice(original, patch, field, options, isDeleteList);
}

function mergeSlice(
  original: unknown[],
  patch: unknown[],
  field: PatchNode,
  options: MergeOptions,
  isDeleteList: boolean,
): MergedList {
  if (original.length === 0 && patch.length === 0) return { merged: original, originalView: original };
  const kind = sliceElementType(original, patch);
  const mergeKey = field.mergeKey;
  if (kind !== 'map') {
    if (options.mergeParallelList && isDeleteList) {
      const toDelete = new Set(patch);
      return { merged: original.filter((v) => !toDelete.has(v)), originalView: original };
    }
    const merged = deduplicateScalars(original.concat(patch));
    const parts = partitionByPresence(merged, patch, mergeKey);
    return {
      merged: normalizeElementOrder(parts.patch, parts.serverOnly, patch, original, mergeKey, kind),
      originalView: original,
    };
  }
  if (mergeKey === '') {
    throw new StrategicMergeError(
      `cannot merge lists without merge key for type ${goKindName(itemsOf(field))}`,
    );
  }

  const list = new SharedSlice(original);
  const { plain, replace } = applySpecialElements(list, patch, mergeKey);
  if (replace) {
    // The other items are the whole list (in their order, which must still carry merge keys).
    const items = taken(plain, options) as unknown[];
    return { merged: normalizeElementOrder([], items, [], items, mergeKey, kind), originalView: list.view() };
  }
  const serverOrder = list.items();
  mergeWithoutSpecialElements(list, plain, mergeKey, itemsOf(field), options);
  const parts = partitionByPresence(list.items(), plain, mergeKey);
  return {
    merged: normalizeElementOrder(parts.patch, parts.serverOnly, plain, serverOrder, mergeKey, kind),
    originalView: list.view(),
  };
}

/**
 * Executes the directive items of a patch list: `{$patch: delete, <key>: v}` removes every item with
 * that key; `{$patch: replace}` makes the other items the whole list. Returns the other items.
 */
function applySpecialElements(
  list: SharedSlice,
  patch: unknown[],
  mergeKey: string,
): { plain: unknown[]; replace: boolean } {
  const plain: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const item = v as JsonMap;
    if (!hasKey(item, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = item[directiveMarker];
    if (directive === deleteDirective) {
      if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
      for (
        let i = indexByKey(list, mergeKey, item[mergeKey]);
        i >= 0;
        i = indexByKey(list, mergeKey, item[mergeKey])
      ) {
        list.deleteAt(i);
      }
    } else if (directive === replaceDirective) {
      replace = true;
    } else if (directive === mergeDirective) {
      throw new StrategicMergeError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, item);
    }
  }
  return { plain, replace };
}

/** Items with a known key are merged into the original's item; new ones are appended. */
function mergeWithoutSpecialElements(
  list: SharedSlice,
  patch: unknown[],
  mergeKey: string,
  items: PatchNode,
  options: MergeOptions,
): void {
  for (const v of patch) {
    const item = v as JsonMap;
    if (!hasKey(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    const found = indexByKey(list, mergeKey, item[mergeKey]);
    if (found >= 0) {
      list.set(found, mergeMap(list.at(found) as JsonMap, item, items, options));
    } else {
      const t = taken(v, options);
      if (t !== undefined) list.append(t);
    }
  }
}

/** Position of the first map whose merge key has `value` (findMapInSliceBasedOnKeyValue). */
function indexByKey(list: SharedSlice, mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.size; i++) {
    const entry = list.at(i);
    if (!isMap(entry)) throw new StrategicMergeError(`value for key ${i} is not a map.`);
    if (hasKey(entry, mergeKey) && entry[mergeKey] === value) return i;
  }
  return -1;
}
