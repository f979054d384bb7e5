import {
  csiUniqueVolumeName,
  storageQuantity,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
} from '@orch/api';

/** The kubelet's podAttachAndMountTimeout: how long a pod start waits for its volumes before FailedMount. */
export const POD_ATTACH_AND_MOUNT_TIMEOUT_MS = 2 * 60_000 + 3_000;

/** Where a pod's claims and their volumes are looked up (the agent's caches). */
export interface ClaimLookups {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
}

/** A persistentVolumeClaim volume of a pod and what it resolves to. */
export interface ClaimVolume {
  /** The volume's name in the pod spec. */
  name: string;
  claimName: string;
  readOnly: boolean;
  claim?: PersistentVolumeClaim;
  /** The bound persistent volume, once the claim is bound and the volume exists. */
  volume?: PersistentVolume;
  /** The unique name of an attachable (CSI) volume, as node.status.volumesAttached names it. */
  attachable?: string;
}

/**
 * The unique name of a volume the attach/detach controller attaches (a CSI persistent volume);
 * undefined for volumes that need no attaching.
 */
export function attachableVolumeName(volume: PersistentVolume | undefined): string | undefined {
  const csi = volume?.spec?.csi;
  return csi?.driver && csi.volumeHandle ? csiUniqueVolumeName(csi.driver, csi.volumeHandle) : undefined;
}

/** The persistentVolumeClaim volumes of a pod resolved through the lookups. */
export function claimVolumes(pod: Pod, lookups: ClaimLookups): ClaimVolume[] {
  const namespace = pod.metadata?.namespace ?? '';
  const out: ClaimVolume[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const source = v.persistentVolumeClaim;
    if (!source?.claimName) continue;
    const claim = lookups.claim(namespace, source.claimName);
    const pvName = claim?.spec?.volumeName;
    const bound = claim?.status?.phase === 'Bound' && pvName;
    const volume = bound ? lookups.volume(pvName) : undefined;
    const attachable = attachableVolumeName(volume);
    out.push({
      name: v.name,
      claimName: source.claimName,
      readOnly: source.readOnly === true,
      ...(claim ? { claim } : {}),
      ...(volume ? { volume } : {}),
      ...(attachable ? { attachable } : {}),
    });
  }
  return out;
}

/**
 * The pod's volumes not ready to mount on the node, by their names in the pod spec: a claim not
 * found, not bound or whose volume is not found; an attachable volume not yet in the node's
 * status.volumesAttached, or not yet reported in its status.volumesInUse (the kubelet mounts an
 * attachable volume only once the node reports it in use, so that it is not detached under it).
 */
export function unmountedVolumes(volumes: readonly ClaimVolume[], node: Node | undefined): string[] {
  const attached = new Set((node?.status?.volumesAttached ?? []).map((v) => v.name));
  const inUse = new Set(node?.status?.volumesInUse ?? []);
  return volumes
    .filter((v) => !v.volume || (v.attachable && (!attached.has(v.attachable) || !inUse.has(v.attachable))))
    .map((v) => v.name);
}

/**
 * The kubelet's FailedMount message when a pod's volumes are still not mounted after
 * podAttachAndMountTimeout; as Kubernetes of that era, the unattached list names every volume of the
 * pod.
 */
export function failedMountMessage(pod: Pod, unmounted: readonly string[]): string {
  const all = (pod.spec?.volumes ?? []).map((v) => v.name);
  return `Unable to attach or mount volumes: unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[${all.join(' ')}]: timed out waiting for the condition`;
}

/**
 * Whether the node must grow the file system of a claim's volume: the volume's capacity exceeds the
 * claim's status.capacity (the kubelet's volumeRequiresFSResize).
 */
export function requiresFSResize(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  const want = storageQuantity(volume.spec?.capacity);
  const have = storageQuantity(claim.status?.capacity);
  return want !== undefined && have !== undefined && have.cmp(want) < 0;
}
