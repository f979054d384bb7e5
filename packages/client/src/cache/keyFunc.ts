import type { KubeObject } from '../types';

/** Computes the store key of an object. */
export type KeyFunc<T> = (obj: T) => string;

/**
 * Wraps the last known state of an object whose deletion was missed (seen only through a relist).
 * Delete handlers receive it instead of the object.
 */
export class DeletedFinalStateUnknown<T> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {}
}

/** `namespace/name`, or `name` for cluster-scoped objects. Tombstones yield their key. */
export function metaNamespaceKeyFunc(obj: KubeObject | DeletedFinalStateUnknown<unknown>): string {
  if (obj instanceof DeletedFinalStateUnknown) {
    return obj.key;
  }
  const name = obj.metadata?.name;
  if (!name) {
    throw new Error('object has no metadata.name');
  }
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

/** Splits `namespace/name` or `name`. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) {
    return { namespace: '', name: parts[0]! };
  }
  if (parts.length === 2) {
    return { namespace: parts[0]!, name: parts[1]! };
  }
  throw new Error(`unexpected key format: "${key}"`);
}
