/**
 * Computing strategic merge patches from documents, as Kubernetes' clients do (kubectl apply, edit,
 * set, rollout undo). Values are compared as a client decodes them: every number is a float64.
 */
import type { TSchema } from '@sinclair/typebox';
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
  mergeKeyValueEqual,
  normalizeSliceOrder,
  sliceElementType,
  sortScalars,
} from './list-order';
import { combineOptions, mergeMap } from './merge-map';
import { mergingMapsHaveConflicts } from './merging-maps-have-conflicts';
import { itemsOf, lookupForList, lookupForMap, patchNodeOf, type PatchNode } from './patch-meta';
import {
  errBadArgType,
  errBadJSONDoc,
  errNoListOfLists,
  errNoMergeKey,
  StrategicMergeError,
} from './strategic-merge-error';
import { yamlText } from './yaml-text';

interface DiffOptions {
  /** Generate `$setElementOrder` parallel lists. */
  setElementOrder: boolean;
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  /** Build a `$retainKeys` list for this map (its field has the retainKeys strategy). */
  buildRetainKeysDirective: boolean;
}

const defaultDiff: DiffOptions = {
  setElementOrder: false,
  ignoreChangesAndAdditions: false,
  ignoreDeletions: false,
  buildRetainKeysDirective: false,
};

/** The patch that turns `original` into `modified` (CreateTwoWayMergePatch). */
export function createTwoWayMergePatch(original: unknown, modified: unknown, schema: TSchema): JsonMap {
  return diffMaps(asMap(original), asMap(modified), patchNodeOf(schema), {
    ...defaultDiff,
    setElementOrder: true,
  });
}

/**
 * The patch `kubectl apply` sends (CreateThreeWayMergePatch): the changes from the live object
 * `current` to the new configuration `modified`, without deletions, plus the deletions from the last
 * applied configuration `original` to `modified`. Fields others set on the live object and that were
 * never in the applied configuration are left alone.
 *
 * With `overwrite: false` (kubectl apply --overwrite=false) a patch that changes a field differently
 * from how it changed between `original` and `current` is refused with Kubernetes' conflict message.
 */
export function createThreeWayMergePatch(
  original: unknown,
  modified: unknown,
  current: unknown,
  schema: TSchema,
  options: { overwrite?: boolean } = {},
): JsonMap {
  const root = patchNodeOf(schema);
  const originalMap = asMap(original);
  const modifiedMap = asMap(modified);
  const currentMap = asMap(current);
  const delta = diffMaps(currentMap, modifiedMap, root, {
    ...defaultDiff,
    ignoreDeletions: true,
    setElementOrder: true,
  });
  const deletions = diffMaps(originalMap, modifiedMap, root, {
    ...defaultDiff,
    setElementOrder: true,
    ignoreChangesAndAdditions: true,
  });
  const patch = mergeMap(deletions, delta, root, combineOptions);
  if (options.overwrite === false) {
    const changed = diffMaps(originalMap, currentMap, root, defaultDiff);
    if (mergingMapsHaveConflicts(patch, changed, root)) {
      throw new StrategicMergeError(
        `patch:\n${yamlText(patch)}\nconflicts with changes made from original to current:\n${yamlText(changed)}\n`,
      );
    }
  }
  return patch;
}

function asMap(value: unknown): JsonMap {
  if (value === undefined || value === null) return {};
  if (!isMap(value)) throw errBadJSONDoc();
  return value;
}

function diffMaps(original: JsonMap, modified: JsonMap, schema: PatchNode, options: DiffOptions): JsonMap {
  const patch: JsonMap = {};
  const retainKeys: unknown[] = [];
  for (const key in modified) {
    if (!hasKey(modified, key)) continue;
    const modifiedValue = modified[key];
    if (options.buildRetainKeysDirective && modifiedValue !== null) retainKeys.push(key);
    if (!hasKey(original, key)) {
      if (!options.ignoreChangesAndAdditions) patch[key] = cloneJson(modifiedValue);
      continue;
    }
    const originalValue = original[key];
    if (key === directiveMarker) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') {
        throw new StrategicMergeError(`invalid value for special key: ${directiveMarker}`);
      }
      if (originalValue !== modifiedValue) patch[key] = modifiedValue;
      continue;
    }
    if (goKind(originalValue) !== goKind(modifiedValue)) {
      if (!options.ignoreChangesAndAdditions) patch[key] = cloneJson(modifiedValue);
      continue;
    }
    if (isMap(originalValue)) {
      handleMapDiff(key, originalValue, modifiedValue as JsonMap, patch, schema, options);
    } else if (Array.isArray(originalValue)) {
      handleSliceDiff(key, originalValue, modifiedValue as unknown[], patch, schema, options);
    } else {
      replaceIfNotEqual(key, originalValue, modifiedValue, patch, options);
    }
  }
  if (!options.ignoreDeletions) {
    for (const key in original) if (hasKey(original, key) && !hasKey(modified, key)) patch[key] = null;
  }
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified))) {
    patch[retainKeysDirective] = sortScalars(retainKeys);
  }
  return patch;
}

/** Looks up a field's metadata; when there is none, equal values need no patch (and no error). */
function lookup(
  find: () => PatchNode,
  originalValue: unknown,
  modifiedValue: unknown,
): PatchNode | undefined {
  try {
    return find();
  } catch (err) {
    if (deepEqual(originalValue, modifiedValue)) return undefined;
    throw err;
  }
}

function handleMapDiff(
  key: string,
  originalValue: JsonMap,
  modifiedValue: JsonMap,
  patch: JsonMap,
  schema: PatchNode,
  options: DiffOptions,
): void {
  const field = lookup(() => lookupForMap(schema, key), originalValue, modifiedValue);
  if (field === undefined) return;
  if (field.strategy === replaceDirective) {
    if (!options.ignoreChangesAndAdditions) patch[key] = cloneJson(modifiedValue);
    return;
  }
  const value = diffMaps(originalValue, modifiedValue, field, {
    ...options,
    buildRetainKeysDirective: field.retainKeys,
  });
  if (Object.keys(value).length > 0) patch[key] = value;
}

function handleSliceDiff(
  key: string,
  originalValue: unknown[],
  modifiedValue: unknown[],
  patch: JsonMap,
  schema: PatchNode,
  options: DiffOptions,
): void {
  const field = lookup(() => lookupForList(schema, key), originalValue, modifiedValue);
  if (field === undefined) return;
  if (field.strategy !== mergeDirective) {
    replaceIfNotEqual(key, originalValue, modifiedValue, patch, options);
    return;
  }
  const { add, deletions, setOrder } = diffLists(originalValue, modifiedValue, field, {
    ...options,
    buildRetainKeysDirective: field.retainKeys,
  });
  if (add.length > 0) patch[key] = add;
  if (deletions.length > 0) patch[`${deleteFromPrimitiveListDirectivePrefix}/${key}`] = deletions;
  if (setOrder.length > 0) patch[`${setElementOrderDirectivePrefix}/${key}`] = setOrder;
}

function replaceIfNotEqual(
  key: string,
  original: unknown,
  modified: unknown,
  patch: JsonMap,
  options: DiffOptions,
): void {
  if (options.ignoreChangesAndAdditions || deepEqual(original, modified)) return;
  patch[key] = cloneJson(modified);
}

function hasAdditionalNewField(original: JsonMap, modified: JsonMap): boolean {
  for (const k in original) {
    if (hasKey(original, k) && original[k] !== null && !hasKey(modified, k)) return true;
  }
  return false;
}

interface ListDiff {
  add: unknown[];
  deletions: unknown[];
  setOrder: unknown[];
}

/**
 * The diff of two merging lists: changed and added items, deletions (directive items for maps, a
 * parallel `$deleteFromPrimitiveList` for primitives) and the `$setElementOrder` list.
 */
function diffLists(
  original: unknown[],
  modified: unknown[],
  field: PatchNode,
  options: DiffOptions,
): ListDiff {
  if (original.length === 0) {
    if (modified.length === 0 || options.ignoreChangesAndAdditions)
      return { add: [], deletions: [], setOrder: [] };
    return { add: cloneJson(modified), deletions: [], setOrder: [] };
  }
  const kind = sliceElementType(original, modified);
  const mergeKey = field.mergeKey;
  if (kind === 'map') {
    const maps = diffListsOfMaps(original, modified, field, options);
    let add = normalizeSliceOrder(maps.add, modified, mergeKey, kind);
    const orderSame = isOrderSame(original, modified, mergeKey);
    add = add.concat(maps.deletions);
    let setOrder: unknown[] = [];
    if (
      options.setElementOrder &&
      ((!options.ignoreChangesAndAdditions && (add.length > 0 || !orderSame)) ||
        (!options.ignoreDeletions && add.length > 0))
    ) {
      setOrder = modified.map((v) => ({ [mergeKey]: (v as JsonMap)[mergeKey] }));
    }
    return { add, deletions: [], setOrder };
  }
  if (kind === 'slice') throw errNoListOfLists();
  // Kubernetes sorts the original list in place here, so the order check below sees it sorted.
  const sortedOriginal = sortScalars([...original]);
  const scalars = diffListsOfScalars(sortedOriginal, modified, options);
  const add = normalizeSliceOrder(scalars.add, modified, mergeKey, kind);
  let setOrder: unknown[] = [];
  if (
    options.setElementOrder &&
    ((!options.ignoreDeletions && scalars.deletions.length > 0) ||
      (!options.ignoreChangesAndAdditions && !deepEqual(sortedOriginal, modified)))
  ) {
    setOrder = cloneJson(modified);
  }
  return { add, deletions: scalars.deletions, setOrder };
}

function isOrderSame(original: unknown[], modified: unknown[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  for (let i = 0; i < modified.length; i++)
    if (!mergeKeyValueEqual(original[i], modified[i], mergeKey)) return false;
  return true;
}

/** Walks both lists sorted by their `%v` text. `sortedOriginal` is already sorted. */
function diffListsOfScalars(
  sortedOriginal: unknown[],
  modified: unknown[],
  options: DiffOptions,
): { add: unknown[]; deletions: unknown[] } {
  const sortedModified = sortScalars([...modified]);
  const add: unknown[] = [];
  const deletions: unknown[] = [];
  let o = 0;
  let m = 0;
  while (o < sortedOriginal.length || m < sortedModified.length) {
    const oIn = o < sortedOriginal.length;
    const mIn = m < sortedModified.length;
    const oText = oIn ? goSprint(sortedOriginal[o], 'float64') : '';
    const mText = mIn ? goSprint(sortedModified[m], 'float64') : '';
    if (oIn && mIn && oText === mText) {
      o++;
      m++;
    } else if (!oIn || (oIn && mIn && oText > mText)) {
      if (!options.ignoreChangesAndAdditions) add.push(sortedModified[m]);
      m++;
    } else {
      if (!options.ignoreDeletions) deletions.push(sortedOriginal[o]);
      o++;
    }
  }
  return { add, deletions: deduplicateScalars(deletions) };
}

function sortByMergeKey(list: unknown[], mergeKey: string): unknown[] {
  if (list.length === 0) return list;
  if (sliceElementType(list) !== 'map') return deduplicateScalars(sortScalars([...list]));
  const keyed = list.map((v) => ({ v, text: goSprint((v as JsonMap)[mergeKey], 'float64') }));
  keyed.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return keyed.map((k) => k.v);
}

function diffListsOfMaps(
  original: unknown[],
  modified: unknown[],
  field: PatchNode,
  options: DiffOptions,
): { add: unknown[]; deletions: unknown[] } {
  const mergeKey = field.mergeKey;
  const add: unknown[] = [];
  const deletions: unknown[] = [];
  const sortedOriginal = sortByMergeKey(original, mergeKey);
  const sortedModified = sortByMergeKey(modified, mergeKey);
  let o = 0;
  let m = 0;
  while (o < sortedOriginal.length || m < sortedModified.length) {
    const oIn = o < sortedOriginal.length;
    const mIn = m < sortedModified.length;
    const oEl = oIn ? mapWithKey(sortedOriginal[o], mergeKey) : undefined;
    const mEl = mIn ? mapWithKey(sortedModified[m], mergeKey) : undefined;
    const oText = oEl ? goSprint(oEl[mergeKey], 'float64') : '';
    const mText = mEl ? goSprint(mEl[mergeKey], 'float64') : '';
    if (oEl && mEl && oText === mText) {
      const value = diffMaps(oEl, mEl, itemsOf(field), options);
      if (Object.keys(value).length > 0) {
        value[mergeKey] = cloneJson(mEl[mergeKey]);
        add.push(value);
      }
      o++;
      m++;
    } else if (!oEl || (mEl && oText > mText)) {
      if (!options.ignoreChangesAndAdditions) add.push(cloneJson(mEl));
      m++;
    } else {
      if (!options.ignoreDeletions)
        deletions.push({ [mergeKey]: cloneJson(oEl[mergeKey]), [directiveMarker]: deleteDirective });
      o++;
    }
  }
  return { add, deletions };
}

function mapWithKey(value: unknown, mergeKey: string): JsonMap {
  if (!isMap(value)) throw errBadArgType('map', value);
  if (!hasKey(value, mergeKey)) throw errNoMergeKey(value, mergeKey);
  return value;
}
