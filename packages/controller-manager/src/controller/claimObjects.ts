import { getControllerOf, newControllerRef, type GroupVersionKindLike, type LabelsSelector } from '@orch/api';
import { isNotFound, type KubeObject, type TypedClient } from '@orch/client';

/** The owner side of a claim: who claims, with which selector and through which client. */
export interface ClaimOwner {
  owner: KubeObject;
  gvk: GroupVersionKindLike;
  selector: LabelsSelector;
  /** Client of the claimed objects' resource. */
  client: TypedClient<any>;
  /** Re-reads the owner before adopting, so a deleted or replaced owner adopts nothing. */
  fresh: () => Promise<KubeObject | undefined>;
}

/** The strategic merge patch adding a controller reference (Kubernetes' adoption patch). */
export function adoptionPatch(obj: KubeObject, c: ClaimOwner): unknown {
  return {
    metadata: { ownerReferences: [newControllerRef(c.owner, c.gvk)], uid: obj.metadata?.uid },
  };
}

/** The strategic merge patch removing owner references by uid (Kubernetes' release patch). */
export function releasePatch(obj: KubeObject, ...ownerUIDs: string[]): unknown {
  return {
    metadata: { ownerReferences: ownerUIDs.map((uid) => ({ $patch: 'delete', uid })), uid: obj.metadata?.uid },
  };
}

/**
 * Kubernetes' ControllerRefManager claim: returns the objects the owner controls after adopting
 * matching orphans and releasing owned objects that no longer match its selector.
 */
export async function claimObjects<T extends KubeObject>(objects: readonly T[], c: ClaimOwner): Promise<T[]> {
  const ownerUID = c.owner.metadata?.uid ?? '';
  const ownerDeleting = !!c.owner.metadata?.deletionTimestamp;
  const claimed: T[] = [];
  let canAdopt: boolean | undefined;
  for (const obj of objects) {
    const ref = getControllerOf(obj as never);
    const labels = obj.metadata?.labels ?? {};
    const matches = c.selector.matches(labels);
    if (ref) {
      if (ref.uid !== ownerUID) continue;
      if (matches || ownerDeleting) {
        claimed.push(obj);
        continue;
      }
      if (obj.metadata?.deletionTimestamp) continue;
      try {
        await c.client.patch(obj.metadata?.name ?? '', 'strategic', releasePatch(obj, ownerUID), {
          namespace: obj.metadata?.namespace,
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      continue;
    }
    if (ownerDeleting || !matches || obj.metadata?.deletionTimestamp) continue;
    if (canAdopt === undefined) {
      const fresh = await c.fresh();
      canAdopt = !!fresh && fresh.metadata?.uid === ownerUID && !fresh.metadata?.deletionTimestamp;
    }
    if (!canAdopt) continue;
    try {
      const adopted = await c.client.patch(obj.metadata?.name ?? '', 'strategic', adoptionPatch(obj, c), {
        namespace: obj.metadata?.namespace,
      });
      claimed.push(adopted as T);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return claimed;
}
