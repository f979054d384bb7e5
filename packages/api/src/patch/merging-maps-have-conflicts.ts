import { directiveMarker, mergeDirective, replaceDirective, retainKeysDirective } from './directives';
import { goSprint } from './go-format';
import { deepEqual, hasKey, isMap, type JsonMap } from './json-value';
import { deduplicateScalars, sliceElementType, sortScalars } from './list-order';
import { lookupForList, lookupForMap, type PatchNode } from './patch-meta';
import { StrategicMergeError } from './strategic-merge-error';

/**
 * Whether two patches change the same field differently (Kubernetes' MergingMapsHaveConflicts):
 * `kubectl apply --overwrite=false` refuses to apply when its patch conflicts with the changes made
 * to the live object since the last apply.
 */
export function mergingMapsHaveConflicts(left: JsonMap, right: JsonMap, schema: PatchNode): boolean {
  return fieldsHaveConflicts(left, right, schema, '', '');
}

function fieldsHaveConflicts(
  left: unknown,
  right: unknown,
  schema: PatchNode | undefined,
  strategy: string,
  mergeKey: string,
): boolean {
  if (isMap(left)) {
    if (!isMap(right)) return true;
    const okLeft = hasKey(left, directiveMarker);
    const okRight = hasKey(right, directiveMarker);
    if ((okLeft || okRight) && (okLeft !== okRight || left[directiveMarker] !== right[directiveMarker]))
      return true;
    if (strategy === replaceDirective) return false;
    return mapsHaveConflicts(left, right, schema);
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right)) return true;
    return slicesHaveConflicts(left, right, schema, strategy, mergeKey);
  }
  return !deepEqual(left, right);
}

function mapsHaveConflicts(left: JsonMap, right: JsonMap, schema: PatchNode | undefined): boolean {
  for (const key in left) {
    if (!hasKey(left, key) || key === directiveMarker || key === retainKeysDirective || !hasKey(right, key))
      continue;
    const leftValue = left[key];
    let sub: PatchNode | undefined;
    if (schema !== undefined && (Array.isArray(leftValue) || isMap(leftValue))) {
      sub = Array.isArray(leftValue) ? lookupForList(schema, key) : lookupForMap(schema, key);
    }
    if (fieldsHaveConflicts(leftValue, right[key], sub, sub?.strategy ?? '', sub?.mergeKey ?? ''))
      return true;
  }
  return false;
}

function slicesHaveConflicts(
  left: unknown[],
  right: unknown[],
  schema: PatchNode | undefined,
  strategy: string,
  mergeKey: string,
): boolean {
  const kind = sliceElementType(left, right);
  const items = schema?.elements;
  if (strategy === mergeDirective) {
    // Merging lists of scalars have no conflicts by definition.
    if (kind !== 'map') return false;
    const leftMap = byMergeKey(left, mergeKey);
    const rightMap = byMergeKey(right, mergeKey);
    for (const [key, value] of leftMap) {
      if (rightMap.has(key) && fieldsHaveConflicts(value, rightMap.get(key), items, '', '')) return true;
    }
    return false;
  }
  if (left.length !== right.length) return true;
  let l = left;
  let r = right;
  if (kind !== 'map') {
    l = sortScalars(deduplicateScalars([...left]));
    r = sortScalars(deduplicateScalars([...right]));
  }
  for (let i = 0; i < l.length; i++) if (fieldsHaveConflicts(l[i], r[i], items, '', '')) return true;
  return false;
}

function byMergeKey(list: unknown[], mergeKey: string): Map<string, JsonMap> {
  const out = new Map<string, JsonMap>();
  for (const value of list) {
    if (!isMap(value))
      throw new StrategicMergeError(`invalid element type in merging list:${goSprint(list)}`);
    if (!hasKey(value, mergeKey)) {
      throw new StrategicMergeError(
        `cannot find merge key \`${mergeKey}\` in merging list element:${goSprint(value)}`,
      );
    }
    out.set(goSprint(value[mergeKey]), value);
  }
  return out;
}
