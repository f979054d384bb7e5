import type { Pod, Volume } from '@orch/api';
import type { FilterPlugin, PreFilterPlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';

export const VOLUME_RESTRICTIONS = 'VolumeRestrictions';
/** Kubernetes' ErrReasonDiskConflict. */
export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';

/** The RADOS pool of an RBD volume that names none. */
const DEFAULT_RBD_POOL = 'rbd';

function haveOverlap(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return b.some((x) => set.has(x));
}

/**
 * Whether `volume` conflicts with one of `pod`'s volumes (Kubernetes' isVolumeConflict): the same
 * GCE persistent disk unless both mount it read-only, the same AWS EBS volume, the same RBD image
 * (an overlapping Ceph monitor, same pool and image) or iSCSI target (IQN) unless both are read-only.
 */
export function isVolumeConflict(volume: Volume, pod: Pod): boolean {
  const { gcePersistentDisk: gce, awsElasticBlockStore: ebs, rbd, iscsi } = volume;
  if (!gce && !ebs && !rbd && !iscsi) return false;
  for (const existing of pod.spec?.volumes ?? []) {
    const eGce = existing.gcePersistentDisk;
    if (gce && eGce && gce.pdName === eGce.pdName && !(gce.readOnly && eGce.readOnly)) return true;
    const eEbs = existing.awsElasticBlockStore;
    if (ebs && eEbs && ebs.volumeID === eEbs.volumeID) return true;
    const eIscsi = existing.iscsi;
    if (iscsi && eIscsi && iscsi.iqn === eIscsi.iqn && !(iscsi.readOnly && eIscsi.readOnly)) return true;
    const eRbd = existing.rbd;
    if (
      rbd &&
      eRbd &&
      haveOverlap(rbd.monitors ?? [], eRbd.monitors ?? []) &&
      (rbd.pool ?? DEFAULT_RBD_POOL) === (eRbd.pool ?? DEFAULT_RBD_POOL) &&
      rbd.image === eRbd.image &&
      !(rbd.readOnly && eRbd.readOnly)
    )
      return true;
  }
  return false;
}

/**
 * Kubernetes' VolumeRestrictions: a pod does not fit a node where a pod already uses one of its
 * in-tree disks (GCE PD, AWS EBS, RBD, iSCSI) in a conflicting way. Only the pods' inline volumes
 * are compared, as in Kubernetes 1.19.
 */
export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin {
  readonly name = VOLUME_RESTRICTIONS;

  /** A pod with none of those disks has nothing to check on any node (Skip). */
  preFilter(_state: unknown, pod: Pod): Status | undefined {
    const disks = (pod.spec?.volumes ?? []).some(
      (v) => v.gcePersistentDisk || v.awsElasticBlockStore || v.rbd || v.iscsi,
    );
    return disks ? undefined : new Status(Code.Skip);
  }

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    for (const volume of pod.spec?.volumes ?? [])
      for (const existing of nodeInfo.pods.values())
        if (isVolumeConflict(volume, existing)) return Status.unschedulable(ERR_REASON_DISK_CONFLICT);
    return undefined;
  }
}
