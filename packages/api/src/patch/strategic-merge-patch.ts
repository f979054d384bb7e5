import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../schema/fields';
import { cloneJson, isMap } from './json-value';
import { applyOptions, mergeMap } from './merge-map';
import { patchNodeOf } from './patch-meta';
import { errBadJSONDoc } from './strategic-merge-error';

/**
 * Applies a strategic merge patch (`application/strategic-merge-patch+json`) to an object of the kind
 * whose root struct is `schema`, with Kubernetes' semantics: merge keys, patch strategies and
 * retainKeys are read from the declaration. Inputs are not modified and the result shares nothing
 * with them. Throws StrategicMergeError for patches Kubernetes rejects.
 */
export function strategicMergePatch(original: unknown, patch: unknown, schema: TSchema): unknown {
  const originalMap = original === undefined || original === null ? {} : original;
  const patchMap = patch === undefined || patch === null ? {} : patch;
  if (!isMap(originalMap) || !isMap(patchMap)) throw errBadJSONDoc();
  return mergeMap(cloneJson(originalMap), patchMap, patchNodeOf(schema), applyOptions);
}

/**
 * Whether objects of this schema accept strategic merge patches: only declared structs carry the
 * merge metadata (Kubernetes answers 415 Unsupported Media Type for kinds without Go types, such as
 * custom resources).
 */
export function supportsStrategicMerge(schema: TSchema): boolean {
  const node = schema as TSchema & Record<string, unknown>;
  return (
    typeof node[OrchKeyword.name] === 'string' &&
    isMap(node.properties) &&
    node[OrchKeyword.customResource] === undefined
  );
}
