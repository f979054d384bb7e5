import type { TSchema } from '@sinclair/typebox';
import { int64, list, rawExtension, str, stringMap, struct } from '../schema/fields';

/**
 * A struct with every kind of merge metadata (the shape Kubernetes' own strategic merge tests use):
 * merging and replacing lists of maps and of integers, a string map, a replaced raw value, a struct
 * with retainKeys, a merging list with retainKeys items and a raw value merged key by key.
 */
function mergeItem(): TSchema {
  const node = struct('io.orch.test.MergeItem', {
    name: str(),
    value: str(),
    other: str(),
    mergingIntList: list(int64(), { patchStrategy: 'merge' }),
    nonMergingIntList: list(int64()),
    simpleMap: stringMap(),
    replacingItem: rawExtension(),
    rawItem: rawExtension(),
  });
  const props = (node as unknown as { properties: Record<string, TSchema> }).properties;
  // Self references, as the Go struct has them.
  props.mergingList = list(node, { patchStrategy: 'merge', patchMergeKey: 'name' });
  props.nonMergingList = list(node);
  // A merge strategy without a merge key: Kubernetes cannot merge such a list of structs.
  props.badList = list(node, { patchStrategy: 'merge' });
  props.retainKeysMergingList = list(node, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' });
  (props.replacingItem as unknown as Record<string, unknown>)['x-kubernetes-patch-strategy'] = 'replace';
  props.retainKeysMap = struct(
    'io.orch.test.RetainKeysMergeItem',
    {
      name: str(),
      value: str(),
      other: str(),
      simpleMap: stringMap(),
      mergingIntList: list(int64(), { patchStrategy: 'merge' }),
      mergingList: list(node, { patchStrategy: 'merge', patchMergeKey: 'name' }),
      nonMergingList: list(node),
    },
    { patchStrategy: 'retainKeys' },
  );
  return node;
}

export const MergeItemSchema = mergeItem();
