import {
  accessModesSatisfied,
  findMatchingVolume,
  storageClassOf,
  storageOf,
  volumeModeMismatch,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from '@orch/api';

/** The volume plugin that provisioned a volume. */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** The provisioner asked to provision a volume for a claim. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';

/** `namespace/name` of a claim. */
export function claimKey(claim: PersistentVolumeClaim): string {
  return `${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`;
}

/** `namespace/name` of the claim a volume refers to. */
export function claimRefKey(volume: PersistentVolume): string {
  const ref = volume.spec?.claimRef;
  return `${ref?.namespace ?? ''}/${ref?.name ?? ''}`;
}

/**
 * Why a volume the claim names in spec.volumeName cannot be bound to it, or undefined when it can
 * (Kubernetes' checkVolumeSatisfyClaim).
 */
export function volumeUnsatisfiedReason(
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): string | undefined {
  if (volume.metadata?.deletionTimestamp)
    return `the volume is marked for deletion "${volume.metadata.name ?? ''}"`;
  if (storageOf(volume.spec?.capacity).cmp(storageOf(claim.spec?.resources?.requests)) < 0)
    return 'requested PV is too small';
  if (storageClassOf(volume) !== storageClassOf(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, volume)) return 'incompatible volumeMode';
  if (!accessModesSatisfied(claim, volume)) return 'incompatible accessMode';
  return undefined;
}

const MODE_ORDER = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'];

/**
 * The best volume for a claim (Kubernetes' persistentVolumeOrderedIndex.findByClaim): volumes are
 * grouped by their set of access modes; the groups offering every mode the claim asks for are
 * searched from the fewest modes up, so a claim gets the volume closest to what it asked for.
 */
export function findBestMatchForClaim(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
): PersistentVolume | undefined {
  const groups = new Map<string, { modes: Set<string>; volumes: PersistentVolume[] }>();
  for (const volume of volumes) {
    const modes = new Set(volume.spec?.accessModes ?? []);
    const key = MODE_ORDER.filter((m) => modes.has(m)).join(',');
    const group = groups.get(key) ?? { modes, volumes: [] };
    group.volumes.push(volume);
    groups.set(key, group);
  }
  const requested = claim.spec?.accessModes ?? [];
  const candidates = [...groups.entries()]
    .filter(([, g]) => requested.every((m) => g.modes.has(m)))
    .sort(([ka, a], [kb, b]) => a.modes.size - b.modes.size || (ka < kb ? -1 : ka > kb ? 1 : 0));
  for (const [, group] of candidates) {
    const found = findMatchingVolume(claim, group.volumes, delayBinding);
    if (found) return found;
  }
  return undefined;
}
