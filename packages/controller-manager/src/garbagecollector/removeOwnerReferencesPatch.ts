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

/**
 * The JSON merge patch doing the same where strategic merge patch is refused (custom resources): the
 * remaining owner references in full, guarded by the resourceVersion they were read at.
 */
export function removeOwnerReferencesMergePatch(obj: KubeObject, ownerUIDs: readonly string[]): unknown {
  return {
    metadata: {
      ownerReferences: (obj.metadata?.ownerReferences ?? []).filter((r) => !ownerUIDs.includes(r.uid)),
      resourceVersion: obj.metadata?.resourceVersion,
    },
  };
}
