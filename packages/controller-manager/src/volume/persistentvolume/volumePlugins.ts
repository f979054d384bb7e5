import {
  ANN_BOUND_BY_CONTROLLER,
  storageClassOf,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '@orch/api';
import { ANN_DYNAMICALLY_PROVISIONED } from './volumeMatching';

/**
 * The volume plugins of this binder. Only the host-path plugin provisions and deletes volumes (and
 * only records them: the nodes are simulated, nothing is made on disk); nfs is known but deletes
 * nothing; other in-tree plugin names are unknown and every other provisioner is external.
 */
export const HOST_PATH_PLUGIN = 'kubernetes.io/host-path';
const IN_TREE_PREFIX = 'kubernetes.io/';
/** Where host-path volumes are provisioned, as Kubernetes names them: `/tmp/hostpath_pv/<uuid>`. */
export const HOST_PATH_PROVISION_DIR = '/tmp/hostpath_pv';
/** The annotation Kubernetes' host-path provisioner puts on its volumes. */
export const ANN_CREATED_BY = 'kubernetes.io/createdby';

/** How a claim of a class gets its volume. */
export type ProvisionPlan =
  /** Dynamic provisioning is off (--enable-dynamic-provisioning=false). */
  | { kind: 'disabled' }
  /** No provisioner can be found: a ProvisioningFailed event with this message. */
  | { kind: 'failed'; message: string }
  /** The host-path plugin provisions the volume. */
  | { kind: 'hostPath'; storageClass: StorageClass }
  /** An external provisioner (or an administrator) is expected to. */
  | { kind: 'external'; storageClass: StorageClass };

/** Kubernetes' findProvisionablePlugin for the claim's class (`undefined`: no such class). */
export function provisionPlan(
  className: string,
  storageClass: StorageClass | undefined,
  dynamicProvisioning: boolean,
): ProvisionPlan {
  if (!dynamicProvisioning) return { kind: 'disabled' };
  if (!storageClass)
    return { kind: 'failed', message: `storageclass.storage.k8s.io "${className}" not found` };
  if (storageClass.provisioner === HOST_PATH_PLUGIN) return { kind: 'hostPath', storageClass };
  if (storageClass.provisioner.startsWith(IN_TREE_PREFIX))
    return { kind: 'failed', message: `no volume plugin matched name: ${storageClass.provisioner}` };
  return { kind: 'external', storageClass };
}

/** The name of the volume provisioned for a claim. */
export function provisionedVolumeName(claim: PersistentVolumeClaim): string {
  return `pvc-${claim.metadata?.uid ?? ''}`;
}

/**
 * The volume the host-path provisioner makes for a claim, bound to it (Kubernetes' hostPath
 * Provision, then the binder's claimRef and annotations), or the ProvisioningFailed message saying
 * why it cannot.
 */
export function hostPathVolume(
  claim: PersistentVolumeClaim,
  storageClass: StorageClass,
  id: string,
): { volume: PersistentVolume } | { error: string; provisionFailed: boolean } {
  if (storageClass.mountOptions?.length) {
    return {
      provisionFailed: false,
      error: `Mount options are not supported by the provisioner but StorageClass "${storageClass.metadata?.name ?? ''}" has mount options [${storageClass.mountOptions.join(' ')}]`,
    };
  }
  if (claim.spec?.volumeMode === 'Block')
    return {
      provisionFailed: true,
      error: `Failed to provision volume with StorageClass "${storageClass.metadata?.name ?? ''}": ${HOST_PATH_PLUGIN} does not support block volume provisioning`,
    };
  const accessModes = claim.spec?.accessModes?.length ? claim.spec.accessModes : ['ReadWriteOnce'];
  const className = storageClassOf(claim);
  const volume: PersistentVolume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: provisionedVolumeName(claim),
      annotations: {
        [ANN_CREATED_BY]: 'hostpath-dynamic-provisioner',
        [ANN_BOUND_BY_CONTROLLER]: 'yes',
        [ANN_DYNAMICALLY_PROVISIONED]: HOST_PATH_PLUGIN,
      },
    },
    spec: {
      persistentVolumeReclaimPolicy: (storageClass.reclaimPolicy ?? 'Delete') as 'Delete' | 'Retain',
      accessModes,
      capacity: { storage: String(claim.spec?.resources?.requests?.storage ?? '0') },
      hostPath: { path: `${HOST_PATH_PROVISION_DIR}/${id}` },
      claimRef: {
        kind: 'PersistentVolumeClaim',
        apiVersion: 'v1',
        namespace: claim.metadata?.namespace,
        name: claim.metadata?.name,
        uid: claim.metadata?.uid,
        resourceVersion: claim.metadata?.resourceVersion,
      },
      ...(className ? { storageClassName: className } : {}),
    },
    status: { phase: 'Bound' },
  } as PersistentVolume;
  return { volume };
}

/** What reclaiming a released volume comes to. */
export type ReclaimPlan =
  | { kind: 'retain' }
  /** Delete the PersistentVolume object. */
  | { kind: 'delete' }
  /** An external deleter is expected to delete it. */
  | { kind: 'external' }
  /** The volume goes Failed, with a Warning event. */
  | { kind: 'fail'; reason: string; message: string };

/** The host-path deleter's check (an unanchored match, as Kubernetes'). */
const HOST_PATH_DELETABLE = /\/tmp\/.+/;

/** Kubernetes' reclaimVolume for the volume's policy (recycling is not supported here). */
export function reclaimPlan(volume: PersistentVolume): ReclaimPlan {
  const name = volume.metadata?.name ?? '';
  switch (volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain') {
    case 'Retain':
      return { kind: 'retain' };
    case 'Recycle':
      return {
        kind: 'fail',
        reason: 'VolumeFailedRecycle',
        message: 'No recycler plugin found for the volume!',
      };
    case 'Delete':
      break;
    default:
      return {
        kind: 'fail',
        reason: 'VolumeUnknownReclaimPolicy',
        message: 'Volume has unrecognized PersistentVolumeReclaimPolicy',
      };
  }
  const failDelete = (message: string): ReclaimPlan => ({
    kind: 'fail',
    reason: 'VolumeFailedDelete',
    message,
  });
  const provisionedBy = volume.metadata?.annotations?.[ANN_DYNAMICALLY_PROVISIONED];
  if (provisionedBy && provisionedBy !== HOST_PATH_PLUGIN) {
    return provisionedBy.startsWith(IN_TREE_PREFIX)
      ? failDelete(`no volume plugin matched name: ${provisionedBy}`)
      : { kind: 'external' };
  }
  if (volume.spec?.hostPath) {
    const path = volume.spec.hostPath.path ?? '';
    return HOST_PATH_DELETABLE.test(path)
      ? { kind: 'delete' }
      : failDelete(`host_path deleter only supports /tmp/.+ but received provided ${path}`);
  }
  const matched = volume.spec?.nfs ? 'no deletable volume plugin matched' : 'no volume plugin matched';
  return failDelete(`error getting deleter volume plugin for volume "${name}": ${matched}`);
}
