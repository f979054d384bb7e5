import {
  usesClaims,
  type Node,
  type PersistentVolume,
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
import { ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, nodeVolumeLimits, randomVolumeIDPrefix } from './volumeLimits';

export const EBS_LIMITS = 'EBSLimits';
export const GCE_PD_LIMITS = 'GCEPDLimits';
export const AZURE_DISK_LIMITS = 'AzureDiskLimits';
/** The environment variable that overrides every in-tree volume limit (positive integer). */
export const KUBE_MAX_PD_VOLS = 'KUBE_MAX_PD_VOLS';

/** Kubernetes' default attach limits. */
export const DEFAULT_MAX_EBS_VOLUMES = 39;
export const DEFAULT_MAX_EBS_NITRO_VOLUMES = 25;
export const DEFAULT_MAX_GCE_PD_VOLUMES = 16;
export const DEFAULT_MAX_AZURE_DISK_VOLUMES = 16;
/** The instance types (Nitro) with the lower EBS limit. */
const EBS_NITRO_INSTANCE_TYPE = /^[cmr]5.*|t3|z1d/;
const INSTANCE_TYPE_LABELS = ['node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type'];

/** One in-tree volume type: how to find its volumes and its limits (Kubernetes' VolumeFilter). */
export interface VolumeTypeFilter {
  /** The plugin's name. */
  name: string;
  /** The node allocatable resource that holds the node's limit. */
  limitKey: string;
  /** The in-tree provisioner whose classes' claims count as this type while unbound. */
  provisioner: string;
  /** The ID of an inline volume of this type. */
  volumeID(volume: Volume): string | undefined;
  /** The ID of a PersistentVolume of this type. */
  persistentVolumeID(pv: PersistentVolume): string | undefined;
  /** The limit of a node that reports none. */
  defaultLimit(node: Node): number;
}

function instanceType(node: Node): string {
  const labels = node.metadata?.labels ?? {};
  return INSTANCE_TYPE_LABELS.map((k) => labels[k]).find((v) => v !== undefined) ?? '';
}

export const EBS_VOLUME_FILTER: VolumeTypeFilter = {
  name: EBS_LIMITS,
  limitKey: 'attachable-volumes-aws-ebs',
  provisioner: 'kubernetes.io/aws-ebs',
  volumeID: (v) => v.awsElasticBlockStore?.volumeID,
  persistentVolumeID: (pv) => pv.spec?.awsElasticBlockStore?.volumeID,
  defaultLimit: (node) =>
    EBS_NITRO_INSTANCE_TYPE.test(instanceType(node))
      ? DEFAULT_MAX_EBS_NITRO_VOLUMES
      : DEFAULT_MAX_EBS_VOLUMES,
};

export const GCE_PD_VOLUME_FILTER: VolumeTypeFilter = {
  name: GCE_PD_LIMITS,
  limitKey: 'attachable-volumes-gce-pd',
  provisioner: 'kubernetes.io/gce-pd',
  volumeID: (v) => v.gcePersistentDisk?.pdName,
  persistentVolumeID: (pv) => pv.spec?.gcePersistentDisk?.pdName,
  defaultLimit: () => DEFAULT_MAX_GCE_PD_VOLUMES,
};

export const AZURE_DISK_VOLUME_FILTER: VolumeTypeFilter = {
  name: AZURE_DISK_LIMITS,
  limitKey: 'attachable-volumes-azure-disk',
  provisioner: 'kubernetes.io/azure-disk',
  volumeID: (v) => v.azureDisk?.diskName,
  persistentVolumeID: (pv) => pv.spec?.azureDisk?.diskName,
  defaultLimit: () => DEFAULT_MAX_AZURE_DISK_VOLUMES,
};

/** The limit KUBE_MAX_PD_VOLS sets, undefined when unset or not a positive integer. */
export function maxPDVolumesFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || !/^[+-]?\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return n > 0 ? n : undefined;
}

/**
 * Kubernetes' nonCSILimits (EBSLimits, GCEPDLimits, AzureDiskLimits): the distinct volumes of one
 * in-tree type used by a node's pods and the new pod, inline or through claims, must not exceed the
 * node's limit: its `attachable-volumes-<type>` allocatable, else KUBE_MAX_PD_VOLS, else the type's
 * default. An unbound claim (or one whose volume is gone) of a class with the type's provisioner
 * counts as one volume; claims not found do not count.
 */
export class NonCSILimits implements PreFilterPlugin, FilterPlugin {
  readonly name: string;
  private readonly listers: VolumeListers;
  private readonly idPrefix = randomVolumeIDPrefix();

  constructor(
    private readonly type: VolumeTypeFilter,
    handle: Pick<FrameworkHandle, 'volumeListers'>,
    private readonly maxVolumesFromEnv: number | undefined = maxPDVolumesFromEnv(
      process.env[KUBE_MAX_PD_VOLS],
    ),
  ) {
    this.name = type.name;
    this.listers = handle.volumeListers;
  }

  /** A pod with no claim and no inline volume of this type adds nothing on any node (Skip). */
  preFilter(_state: unknown, pod: Pod): Status | undefined {
    if (usesClaims(pod)) return undefined;
    const inline = (pod.spec?.volumes ?? []).some((v) => this.type.volumeID(v) !== undefined);
    return inline ? undefined : new Status(Code.Skip);
  }

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const volumes = pod.spec?.volumes ?? [];
    if (volumes.length === 0) return undefined;
    const newVolumes = new Set<string>();
    const existing = new Set<string>();
    try {
      this.filterVolumes(volumes, pod.metadata?.namespace ?? '', newVolumes);
      if (newVolumes.size === 0) return undefined;
      if (!nodeInfo.node) return Status.error('node not found');
      for (const p of nodeInfo.pods.values())
        this.filterVolumes(p.spec?.volumes ?? [], p.metadata?.namespace ?? '', existing);
    } catch (err) {
      return Status.error(err instanceof Error ? err.message : String(err));
    }
    // volumes already attached for other pods add nothing
    for (const id of existing) newVolumes.delete(id);
    const max =
      nodeVolumeLimits(nodeInfo).get(this.type.limitKey) ??
      this.maxVolumesFromEnv ??
      this.type.defaultLimit(nodeInfo.node);
    if (existing.size + newVolumes.size > max)
      return Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
    return undefined;
  }

  /** Adds the IDs of `volumes`' volumes of this type to `ids`. */
  private filterVolumes(volumes: readonly Volume[], namespace: string, ids: Set<string>): void {
    for (const volume of volumes) {
      const id = this.type.volumeID(volume);
      if (id !== undefined) {
        ids.add(id);
        continue;
      }
      if (!volume.persistentVolumeClaim) continue;
      const claimName = volume.persistentVolumeClaim.claimName;
      if (!claimName) throw new Error('PersistentVolumeClaim had no name');
      // until the real ID is known, the claim stands for its volume
      const claimID = `${this.idPrefix}-${namespace}/${claimName}`;
      const claim = this.listers.claim(namespace, claimName);
      // no telling whether a claim not found is of this type: not counted
      if (!claim) continue;
      const volumeName = claim.spec?.volumeName;
      const pv = volumeName ? this.listers.volume(volumeName) : undefined;
      if (!pv) {
        // unbound (the pod may still use the volume it was bound to) or its volume is gone
        if (this.matchesProvisioner(claim)) ids.add(claimID);
        continue;
      }
      const pvID = this.type.persistentVolumeID(pv);
      if (pvID !== undefined) ids.add(pvID);
    }
  }

  /** Whether the claim's class (spec.storageClassName) provisions volumes of this type. */
  private matchesProvisioner(claim: PersistentVolumeClaim): boolean {
    const className = claim.spec?.storageClassName;
    if (className === undefined || className === null) return false;
    return this.listers.storageClass(className)?.provisioner === this.type.provisioner;
  }
}
