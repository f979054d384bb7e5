import {
  storageClassOf,
  usesClaims,
  type CSINode,
  type PersistentVolumeClaim,
  type Pod,
  type Volume,
} from '@orch/api';
import type {
  FilterPlugin,
  FrameworkHandle,
  PreFilterPlugin,
  VolumeListers,
} from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import {
  csiAttachLimitKey,
  ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
  nodeVolumeLimits,
  randomVolumeIDPrefix,
} from './volumeLimits';

export const NODE_VOLUME_LIMITS = 'NodeVolumeLimits';

/**
 * Kubernetes' CSILimits (NodeVolumeLimits): the CSI volumes of the pods on a node, with the new pod's,
 * must stay within each driver's attach limit (its CSINode entry's allocatable.count, else the node's
 * `attachable-volumes-csi-<driver>` allocatable). Volumes are counted once per driver and volume handle;
 * only volumes of claims count (inline CSI volumes do not, as in Kubernetes 1.19). An unbound claim,
 * or one whose volume is gone, counts as a volume of its class's provisioner.
 */
export class CSILimits implements PreFilterPlugin, FilterPlugin {
  readonly name = NODE_VOLUME_LIMITS;
  private readonly listers: VolumeListers;
  private readonly idPrefix = randomVolumeIDPrefix();

  constructor(handle: Pick<FrameworkHandle, 'volumeListers'>) {
    this.listers = handle.volumeListers;
  }

  /** The plugin counts only the volumes of claims: a pod with none has nothing to check on any node (Skip). */
  preFilter(_state: unknown, pod: Pod): Status | undefined {
    return usesClaims(pod) ? undefined : new Status(Code.Skip);
  }

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const volumes = pod.spec?.volumes ?? [];
    if (volumes.length === 0) return undefined;
    const node = nodeInfo.node;
    if (!node) return Status.error('node not found');
    const csiNode = this.listers.csiNode(nodeInfo.name);

    const newVolumes = new Map<string, string>();
    try {
      this.attachableVolumes(volumes, pod.metadata?.namespace ?? '', newVolumes);
    } catch (err) {
      return Status.error(err instanceof Error ? err.message : String(err));
    }
    if (newVolumes.size === 0) return undefined;
    const limits = volumeLimits(nodeInfo, csiNode);
    if (limits.size === 0) return undefined;

    const attached = new Map<string, string>();
    try {
      for (const existing of nodeInfo.pods.values())
        this.attachableVolumes(existing.spec?.volumes ?? [], existing.metadata?.namespace ?? '', attached);
    } catch (err) {
      return Status.error(err instanceof Error ? err.message : String(err));
    }
    const attachedCount = new Map<string, number>();
    for (const [uniqueName, limitKey] of attached) {
      // a volume several pods use is attached once
      newVolumes.delete(uniqueName);
      attachedCount.set(limitKey, (attachedCount.get(limitKey) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const limitKey of newVolumes.values()) newCount.set(limitKey, (newCount.get(limitKey) ?? 0) + 1);
    for (const [limitKey, count] of newCount) {
      const max = limits.get(limitKey);
      if (max !== undefined && (attachedCount.get(limitKey) ?? 0) + count > max)
        return Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
    }
    return undefined;
  }

  /** Adds the CSI volumes of `volumes`' claims to `result` (`driver/handle` → limit key). */
  private attachableVolumes(
    volumes: readonly Volume[],
    namespace: string,
    result: Map<string, string>,
  ): void {
    for (const volume of volumes) {
      if (!volume.persistentVolumeClaim) continue;
      const claimName = volume.persistentVolumeClaim.claimName;
      if (!claimName) throw new Error('PersistentVolumeClaim had no name');
      const claim = this.listers.claim(namespace, claimName);
      // a claim not (yet) known is not counted
      if (!claim) continue;
      const info = this.driverInfo(claim);
      if (!info) continue;
      result.set(`${info.driver}/${info.handle}`, csiAttachLimitKey(info.driver));
    }
  }

  /** The CSI driver and volume handle of a claim's volume. */
  private driverInfo(claim: PersistentVolumeClaim): { driver: string; handle: string } | undefined {
    const volumeName = claim.spec?.volumeName;
    // unbound, or bound to a volume not known (deleted, or pre-bound to one not created yet)
    const pv = volumeName ? this.listers.volume(volumeName) : undefined;
    if (!pv) return this.driverInfoFromClass(claim);
    // in-tree volumes count here only when migrated to CSI (CSIMigration* gates, off in orch)
    const csi = pv.spec?.csi;
    if (!csi?.driver || !csi.volumeHandle) return undefined;
    return { driver: csi.driver, handle: csi.volumeHandle };
  }

  /** An unbound claim's volume: one of its class's provisioner, identified by the claim. */
  private driverInfoFromClass(claim: PersistentVolumeClaim): { driver: string; handle: string } | undefined {
    const className = storageClassOf(claim);
    if (!className) return undefined;
    const storageClass = this.listers.storageClass(className);
    if (!storageClass?.provisioner) return undefined;
    const handle = `${this.idPrefix}-${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`;
    return { driver: storageClass.provisioner, handle };
  }
}

/** A node's attach limits: its allocatable ones, overridden by its CSINode's driver counts. */
function volumeLimits(nodeInfo: NodeInfo, csiNode: CSINode | undefined): Map<string, number> {
  const limits = nodeVolumeLimits(nodeInfo);
  for (const driver of csiNode?.spec?.drivers ?? []) {
    const count = driver.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(csiAttachLimitKey(driver.name), count);
  }
  return limits;
}
