import {
  goQuote,
  labelZonesToSet,
  storageClassOf,
  usesClaims,
  VOLUME_ZONE_LABELS,
  type Pod,
} from '@orch/api';
import type {
  FilterPlugin,
  FrameworkHandle,
  PreFilterPlugin,
  VolumeListers,
} from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';

export const VOLUME_ZONE = 'VolumeZone';
/** Kubernetes' ErrReasonConflict of VolumeZone. */
export const ERR_REASON_VOLUME_ZONE_CONFLICT = 'node(s) had no available volume zone';

/**
 * Kubernetes' VolumeZone: the PersistentVolumes of a pod's bound claims that carry zone or region
 * labels fit only nodes labelled with one of their zones (regions). Nodes without such labels fit;
 * unbound claims of WaitForFirstConsumer classes are left to VolumeBinding.
 */
export class VolumeZone implements PreFilterPlugin, FilterPlugin {
  readonly name = VOLUME_ZONE;
  private readonly listers: VolumeListers;

  constructor(handle: Pick<FrameworkHandle, 'volumeListers'>) {
    this.listers = handle.volumeListers;
  }

  /** The plugin checks only the volumes of claims: a pod with none has nothing to check on any node (Skip). */
  preFilter(_state: unknown, pod: Pod): Status | undefined {
    return usesClaims(pod) ? undefined : new Status(Code.Skip);
  }

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const volumes = pod.spec?.volumes ?? [];
    if (volumes.length === 0) return undefined;
    const node = nodeInfo.node;
    if (!node) return Status.error('node not found');
    const nodeConstraints = new Map<string, string>();
    for (const [k, v] of Object.entries(node.metadata?.labels ?? {}))
      if (VOLUME_ZONE_LABELS.has(k)) nodeConstraints.set(k, v);
    // a node without zone labels fits (when zones are used, every node has them)
    if (nodeConstraints.size === 0) return undefined;

    const namespace = pod.metadata?.namespace ?? '';
    for (const volume of volumes) {
      if (!volume.persistentVolumeClaim) continue;
      const claimName = volume.persistentVolumeClaim.claimName;
      if (!claimName) return Status.error('PersistentVolumeClaim had no name');
      const claim = this.listers.claim(namespace, claimName);
      if (!claim) return Status.error(`persistentvolumeclaim ${goQuote(claimName)} not found`);
      const volumeName = claim.spec?.volumeName;
      if (!volumeName) {
        const className = storageClassOf(claim);
        if (!className) return Status.error('PersistentVolumeClaim had no pv name and storageClass name');
        const storageClass = this.listers.storageClass(className);
        if (!storageClass)
          return Status.error(
            `StorageClass ${goQuote(className)} claimed by PersistentVolumeClaim ${goQuote(claimName)} not found`,
          );
        if (!storageClass.volumeBindingMode)
          return Status.error(`VolumeBindingMode not set for StorageClass ${goQuote(className)}`);
        // bound later, on the node VolumeBinding picks
        if (storageClass.volumeBindingMode === 'WaitForFirstConsumer') continue;
        return Status.error('PersistentVolume had no name');
      }
      const pv = this.listers.volume(volumeName);
      if (!pv) return Status.error(`persistentvolume ${goQuote(volumeName)} not found`);
      for (const [k, v] of Object.entries(pv.metadata?.labels ?? {})) {
        if (!VOLUME_ZONE_LABELS.has(k)) continue;
        let zones: Set<string>;
        try {
          zones = labelZonesToSet(v);
        } catch {
          // a malformed label is ignored, as in Kubernetes
          continue;
        }
        if (!zones.has(nodeConstraints.get(k) ?? ''))
          return Status.unresolvable(ERR_REASON_VOLUME_ZONE_CONFLICT);
      }
    }
    return undefined;
  }
}
