import { createHash } from 'node:crypto';
import {
  csiUniqueVolumeName,
  isPodTerminal,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
} from '@orch/api';

/** Nodes whose volumes the attach/detach controller attaches and detaches (the kubelet sets it). */
export const CONTROLLER_MANAGED_ATTACH_DETACH_ANNOTATION =
  'volumes.kubernetes.io/controller-managed-attach-detach';

/** A volume to attach to a node: a CSI persistent volume some of the node's pods use. */
export interface DesiredAttachment {
  /** The unique volume name, as node.status.volumesAttached and volumesInUse carry it. */
  uniqueName: string;
  driver: string;
  volumeHandle: string;
  /** The persistent volume, named in events and in the VolumeAttachment's source. */
  pvName: string;
  /** The pods that use it. */
  pods: Pod[];
}

/** Whether the attach/detach controller manages the node's volumes. */
export function isAttachDetachManaged(node: Node): boolean {
  return node.metadata?.annotations?.[CONTROLLER_MANAGED_ATTACH_DETACH_ANNOTATION] === 'true';
}

/** The name of the VolumeAttachment of a CSI volume on a node: `csi-` and sha256(handle + driver + node) in hex. */
export function volumeAttachmentName(volumeHandle: string, driver: string, nodeName: string): string {
  return `csi-${createHash('sha256').update(`${volumeHandle}${driver}${nodeName}`).digest('hex')}`;
}

/** Lookups of the caches the desired state is computed from. */
export interface VolumeLookups {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
}

/**
 * The volumes that should be attached to a node: for each of its pods that has not finished, each
 * persistentVolumeClaim volume whose claim is bound to a CSI persistent volume. Claims not bound yet
 * and volumes of plugins that need no attaching are left out.
 */
export function desiredAttachments(
  pods: readonly Pod[],
  lookups: VolumeLookups,
): Map<string, DesiredAttachment> {
  const out = new Map<string, DesiredAttachment>();
  for (const pod of pods) {
    if (isPodTerminal(pod)) continue;
    const namespace = pod.metadata?.namespace ?? '';
    for (const v of pod.spec?.volumes ?? []) {
      const claimName = v.persistentVolumeClaim?.claimName;
      if (!claimName) continue;
      const claim = lookups.claim(namespace, claimName);
      const pvName = claim?.spec?.volumeName;
      if (!claim || claim.status?.phase !== 'Bound' || !pvName) continue;
      const csi = lookups.volume(pvName)?.spec?.csi;
      if (!csi?.driver || !csi.volumeHandle) continue;
      const uniqueName = csiUniqueVolumeName(csi.driver, csi.volumeHandle);
      const entry = out.get(uniqueName);
      if (entry) {
        if (!entry.pods.includes(pod)) entry.pods.push(pod);
        continue;
      }
      out.set(uniqueName, {
        uniqueName,
        driver: csi.driver,
        volumeHandle: csi.volumeHandle,
        pvName,
        pods: [pod],
      });
    }
  }
  return out;
}
