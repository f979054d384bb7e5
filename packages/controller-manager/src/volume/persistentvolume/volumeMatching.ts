import {
  labelSelectorAsSelector,
  newQuantity,
  storageClassOf,
  tryParseQuantity,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Quantity,
} from '@orch/api';

/** Set on a claim once the binder has finished binding it (its phase is no longer Pending). */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** Set on a volume or claim the binder bound, as opposed to one the user pre-bound. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** The volume plugin that provisioned a volume. */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** The provisioner asked to provision a volume for a claim. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** The node chosen for a claim of a WaitForFirstConsumer class: provisioning may start. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';

const ZERO = newQuantity(0, 'BinarySI');

/** The storage of a resource list (zero when missing or not a quantity). */
export function storageOf(list: Record<string, unknown> | undefined): Quantity {
  const q = list?.storage;
  return (q === undefined ? undefined : tryParseQuantity(String(q))) ?? ZERO;
}

/** `namespace/name` of a claim. */
export function claimKey(claim: PersistentVolumeClaim): string {
  return `${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`;
}

/** `namespace/name` of the claim a volume refers to. */
export function claimRefKey(volume: PersistentVolume): string {
  const ref = volume.spec?.claimRef;
  return `${ref?.namespace ?? ''}/${ref?.name ?? ''}`;
}

/** Whether the volume's claimRef names the claim (and, when it has a UID, the same claim). */
export function isVolumeBoundToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/** Whether claim and volume differ in volumeMode (Filesystem when unset). */
export function volumeModeMismatch(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (volume.spec?.volumeMode ?? 'Filesystem');
}

/** Whether the volume offers every access mode the claim asks for. */
export function accessModesSatisfied(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  const offered = new Set(volume.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((m) => offered.has(m));
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

/**
 * The volume among `volumes` for the claim (Kubernetes' FindMatchingVolume over one access-mode
 * group): one pre-bound to the claim wins; otherwise the smallest Available one of the claim's
 * class, size, volumeMode and selector. With `delayBinding` only a pre-bound volume is taken:
 * binding waits for the claim's consumer.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
): PersistentVolume | undefined {
  const requested = storageOf(claim.spec?.resources?.requests);
  const requestedClass = storageClassOf(claim);
  const selector = claim.spec?.selector ? labelSelectorAsSelector(claim.spec.selector) : undefined;
  let smallest: PersistentVolume | undefined;
  let smallestQty: Quantity | undefined;
  for (const volume of volumes) {
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const qty = storageOf(volume.spec?.capacity);
    if (qty.cmp(requested) < 0) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(volume, claim)) return volume;
    if (delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (selector && !selector.matches(volume.metadata?.labels ?? {})) continue;
    if (storageClassOf(volume) !== requestedClass) continue;
    if (!smallestQty || smallestQty.cmp(qty) > 0) {
      smallest = volume;
      smallestQty = qty;
    }
  }
  return smallest;
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
