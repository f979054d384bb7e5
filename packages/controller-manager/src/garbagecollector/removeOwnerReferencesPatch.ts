import type { KubeObject } from '@orch/client';

/**
 * The strategic merge patch dropping owner references by uid, guarded by the object's uid (the
 * garbage collector's patch for dangling owners and orphaning).
 */
export function removeOwnerReferencesPatch(obj: KubeObject, ownerUIDs: readonly string[]): unknown {
  return {
    metadata: {
      ownerReferences: ownerUIDs.map((uid) => ({ $patch: 'delete', uid })),
      uid: obj.metadata?.uid,
    },
  };
}
