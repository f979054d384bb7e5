import { mergeResizeConditions, storageQuantity, type PersistentVolumeClaim } from '@orch/api';

/** The annotation naming the resizer expected to expand a claim's volume. */
export const ANN_STORAGE_RESIZER = 'volume.kubernetes.io/storage-resizer';

type ClaimCondition = NonNullable<NonNullable<PersistentVolumeClaim['status']>['conditions']>[number];

/** A bound claim whose request exceeds its capacity: its volume is to be expanded. */
export function needsExpansion(claim: PersistentVolumeClaim): boolean {
  if (claim.status?.phase !== 'Bound') return false;
  const requested = storageQuantity(claim.spec?.resources?.requests);
  const capacity = storageQuantity(claim.status?.capacity);
  return requested !== undefined && capacity !== undefined && requested.cmp(capacity) > 0;
}

function withConditions(claim: PersistentVolumeClaim, wanted: ClaimCondition[]): PersistentVolumeClaim {
  const copy = structuredClone(claim);
  copy.status = { ...copy.status, conditions: mergeResizeConditions(claim.status?.conditions, wanted) };
  return copy;
}

/** Kubernetes' MarkResizeInProgressWithResizer: the Resizing condition and the resizer annotation. */
export function markResizeInProgress(
  claim: PersistentVolumeClaim,
  resizer: string,
  now: string,
): PersistentVolumeClaim {
  const copy = withConditions(claim, [{ type: 'Resizing', status: 'True', lastTransitionTime: now }]);
  copy.metadata = {
    ...copy.metadata,
    annotations: { ...copy.metadata?.annotations, [ANN_STORAGE_RESIZER]: resizer },
  };
  return copy;
}

/** Kubernetes' MarkForFSResize: the device is expanded, the node is to grow the file system. */
export function markForFSResize(claim: PersistentVolumeClaim, now: string): PersistentVolumeClaim {
  return withConditions(claim, [
    {
      type: 'FileSystemResizePending',
      status: 'True',
      lastTransitionTime: now,
      message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
    },
  ]);
}

/** Kubernetes' MarkResizeFinished: the claim's capacity is the new size, no resize condition is left. */
export function markResizeFinished(claim: PersistentVolumeClaim, size: string): PersistentVolumeClaim {
  const copy = withConditions(claim, []);
  copy.status = { ...copy.status, capacity: { ...copy.status?.capacity, storage: size } };
  return copy;
}
