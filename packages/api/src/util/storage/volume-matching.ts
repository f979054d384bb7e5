import type { ObjectReference } from '../../kinds/core/object-reference';
import type { Node } from '../../kinds/core/node';
import type { PersistentVolume } from '../../kinds/core/persistent-volume';
import { storageClassOf } from '../../kinds/core/persistent-volume';
import type { PersistentVolumeClaim } from '../../kinds/core/persistent-volume-claim';
import { labelSelectorAsSelector } from '../labels/labelSelector';
import { tryParseQuantity } from '../quantity/parse';
import { newQuantity, type Quantity } from '../quantity/quantity';
import { NodeSelectorMatcher } from '../scheduling/node-affinity';

/** Set on a claim once the binder has finished binding it (its phase is no longer Pending). */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** Set on a volume or claim the binder bound, as opposed to one the user pre-bound. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** The node chosen for a claim of a WaitForFirstConsumer class: provisioning may start. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';

const ZERO = newQuantity(0, 'BinarySI');

/** The storage of a resource list (zero when missing or not a quantity). */
export function storageOf(list: Record<string, unknown> | undefined): Quantity {
  const q = list?.storage;
  return (q === undefined ? undefined : tryParseQuantity(String(q))) ?? ZERO;
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
 * Whether a node with these labels satisfies the volume's required node affinity (Kubernetes'
 * CheckNodeAffinity: only the labels count, so matchFields terms match no node).
 */
export function volumeNodeAffinityMatches(
  volume: PersistentVolume,
  nodeLabels: Readonly<Record<string, string>> | undefined,
): boolean {
  const required = volume.spec?.nodeAffinity?.required;
  if (!required) return true;
  const node = { metadata: { labels: { ...nodeLabels } } } as Node;
  return new NodeSelectorMatcher(required.nodeSelectorTerms ?? []).matches(node);
}

/** Where a volume is looked for on behalf of the scheduler. */
export interface SchedulingMatch {
  /** The node the volume must be usable from (its node affinity). */
  node: Node;
  /** Volumes already chosen for other claims of the pod. */
  excluded?: ReadonlySet<string>;
}

/**
 * The volume among `volumes` for the claim (Kubernetes' FindMatchingVolume): one pre-bound to the
 * claim wins; otherwise the smallest Available one of the claim's class, size, volumeMode and
 * selector. Without `scheduling` (the binder's path) a delayed-binding claim takes only a pre-bound
 * volume; with it (the scheduler's path) volumes must also suit the node and the access modes.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
  scheduling?: SchedulingMatch,
): PersistentVolume | undefined {
  const requested = storageOf(claim.spec?.resources?.requests);
  const requestedClass = storageClassOf(claim);
  const selector = claim.spec?.selector ? labelSelectorAsSelector(claim.spec.selector) : undefined;
  const node = scheduling?.node;
  let smallest: PersistentVolume | undefined;
  let smallestQty: Quantity | undefined;
  for (const volume of volumes) {
    if (scheduling?.excluded?.has(volume.metadata?.name ?? '')) continue;
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const qty = storageOf(volume.spec?.capacity);
    if (qty.cmp(requested) < 0) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const nodeAffinityValid = !node || volumeNodeAffinityMatches(volume, node.metadata?.labels);
    if (isVolumeBoundToClaim(volume, claim)) return nodeAffinityValid ? volume : undefined;
    if (!node && delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (selector && !selector.matches(volume.metadata?.labels ?? {})) continue;
    if (storageClassOf(volume) !== requestedClass) continue;
    if (!nodeAffinityValid) continue;
    if (node && !accessModesSatisfied(claim, volume)) continue;
    if (!smallestQty || smallestQty.cmp(qty) > 0) {
      smallest = volume;
      smallestQty = qty;
    }
  }
  return smallest;
}

/**
 * The volume bound to the claim (Kubernetes' GetBindVolumeToClaim): a copy with claimRef set to the
 * claim and, unless the user pre-bound it, the bound-by-controller annotation; undefined when the
 * volume already says so.
 */
export function volumeBoundToClaim(
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): PersistentVolume | undefined {
  const setByController = !isVolumeBoundToClaim(volume, claim);
  const ref = volume.spec?.claimRef;
  const annotations = { ...(volume.metadata?.annotations ?? {}) };
  let dirty = false;
  let claimRef: ObjectReference | undefined = ref;
  if (
    !ref ||
    ref.name !== claim.metadata?.name ||
    ref.namespace !== claim.metadata?.namespace ||
    ref.uid !== claim.metadata?.uid
  ) {
    claimRef = {
      kind: 'PersistentVolumeClaim',
      namespace: claim.metadata?.namespace,
      name: claim.metadata?.name,
      uid: claim.metadata?.uid,
      apiVersion: 'v1',
      resourceVersion: claim.metadata?.resourceVersion,
    };
    dirty = true;
  }
  if (setByController && annotations[ANN_BOUND_BY_CONTROLLER] === undefined) {
    annotations[ANN_BOUND_BY_CONTROLLER] = 'yes';
    dirty = true;
  }
  if (!dirty) return undefined;
  return {
    ...volume,
    metadata: { ...volume.metadata, annotations },
    spec: { ...volume.spec, claimRef },
  } as PersistentVolume;
}
