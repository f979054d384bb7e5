import { deepEqual } from '../../patch/json-value';
import type { Static } from '@sinclair/typebox';
import { field, list, map, oneOf, quantity, str, struct } from '../../schema/fields';
import { defineKind, type ColumnDeclaration } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isDNS1123Subdomain } from '../../util/names';
import {
  child,
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { NodeSelectorSchema } from './affinity';
import { inlined } from '../../schema/fields';
import { ObjectReferenceSchema } from './object-reference';
import {
  AWSElasticBlockStoreVolumeSourceSchema,
  AzureDiskVolumeSourceSchema,
  AzureFilePersistentVolumeSourceSchema,
  CephFSPersistentVolumeSourceSchema,
  CinderPersistentVolumeSourceSchema,
  CSIPersistentVolumeSourceSchema,
  FCVolumeSourceSchema,
  FlexPersistentVolumeSourceSchema,
  FlockerVolumeSourceSchema,
  GCEPersistentDiskVolumeSourceSchema,
  GlusterfsPersistentVolumeSourceSchema,
  HostPathVolumeSourceSchema,
  ISCSIPersistentVolumeSourceSchema,
  LocalVolumeSourceSchema,
  NFSVolumeSourceSchema,
  PhotonPersistentDiskVolumeSourceSchema,
  PortworxVolumeSourceSchema,
  QuobyteVolumeSourceSchema,
  RBDPersistentVolumeSourceSchema,
  ScaleIOPersistentVolumeSourceSchema,
  StorageOSPersistentVolumeSourceSchema,
  VsphereVirtualDiskVolumeSourceSchema,
} from './volume';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** Access modes, in Kubernetes' sorted order (for "Unsupported value" messages). */
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'] as const;
export const VOLUME_MODES = ['Block', 'Filesystem'] as const;
/** Annotation that preceded storageClassName and still takes precedence over it. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** Finalizer that keeps a volume while a claim is bound to it (pv-protection). */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** Kubernetes' GetAccessModesAsString: "RWO,ROX,RWX,RWOP" in that order, without duplicates. */
export function accessModesString(modes: readonly string[] | undefined): string {
  const m = new Set(modes ?? []);
  const out: string[] = [];
  if (m.has('ReadWriteOnce')) out.push('RWO');
  if (m.has('ReadOnlyMany')) out.push('ROX');
  if (m.has('ReadWriteMany')) out.push('RWX');
  if (m.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** The storage class of a volume or claim: the beta annotation wins over storageClassName. */
export function storageClassOf(obj: {
  metadata?: { annotations?: Record<string, string> };
  spec?: { storageClassName?: string };
}): string {
  return obj.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? obj.spec?.storageClassName ?? '';
}

/**
 * The VOLUMEATTRIBUTESCLASS column of volumes and claims. The server keeps no
 * volumeAttributesClassName (the field of an alpha feature, off by default, whose value is dropped
 * on write), so the class is always unset.
 */
export function volumeAttributesClassColumn(): ColumnDeclaration<unknown> {
  return {
    name: 'VolumeAttributesClass',
    type: 'string',
    description: 'The class of mutable volume attributes; <unset> without one.',
    cell: () => '<unset>',
  };
}

/** Kubernetes' validation of access modes and storage class names shared by volumes and claims. */
export function validateAccessModes(
  modes: readonly string[] | undefined,
  path: string,
  detail: string,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!modes?.length) errors.push(required(path, detail));
  for (const mode of modes ?? []) {
    if (!(ACCESS_MODES as readonly string[]).includes(mode))
      errors.push(notSupported(path, mode, ACCESS_MODES));
  }
  return errors;
}

export function validateStorageClassName(name: string | undefined, path: string): FieldError[] {
  return name ? isDNS1123Subdomain(name).map((msg) => invalid(path, name, msg)) : [];
}

/** The members of PersistentVolumeSource in Kubernetes' validation order, with their protobuf numbers. */
const persistentVolumeSourceFields = {
  hostPath: field(HostPathVolumeSourceSchema, {
    proto: 3,
    description: 'A directory on the host (single-node testing only).',
  }),
  gcePersistentDisk: field(GCEPersistentDiskVolumeSourceSchema, {
    proto: 1,
    description: 'A GCE persistent disk.',
  }),
  awsElasticBlockStore: field(AWSElasticBlockStoreVolumeSourceSchema, {
    proto: 2,
    description: 'An AWS EBS disk.',
  }),
  glusterfs: field(GlusterfsPersistentVolumeSourceSchema, { proto: 4, description: 'A Glusterfs volume.' }),
  flocker: field(FlockerVolumeSourceSchema, { proto: 11, description: 'A Flocker volume.' }),
  nfs: field(NFSVolumeSourceSchema, { proto: 5, description: 'An NFS mount.' }),
  rbd: field(RBDPersistentVolumeSourceSchema, { proto: 6, description: 'A Rados block device.' }),
  quobyte: field(QuobyteVolumeSourceSchema, { proto: 15, description: 'A Quobyte mount.' }),
  cinder: field(CinderPersistentVolumeSourceSchema, { proto: 8, description: 'A Cinder volume.' }),
  cephfs: field(CephFSPersistentVolumeSourceSchema, { proto: 9, description: 'A CephFS mount.' }),
  iscsi: field(ISCSIPersistentVolumeSourceSchema, { proto: 7, description: 'An iSCSI disk.' }),
  fc: field(FCVolumeSourceSchema, { proto: 10, description: 'A Fibre Channel volume.' }),
  flexVolume: field(FlexPersistentVolumeSourceSchema, {
    proto: 12,
    description: 'A volume handled by an exec based plugin.',
  }),
  azureFile: field(AzureFilePersistentVolumeSourceSchema, {
    proto: 13,
    description: 'An Azure File Service mount.',
  }),
  vsphereVolume: field(VsphereVirtualDiskVolumeSourceSchema, { proto: 14, description: 'A vSphere volume.' }),
  photonPersistentDisk: field(PhotonPersistentDiskVolumeSourceSchema, {
    proto: 17,
    description: 'A Photon Controller persistent disk.',
  }),
  portworxVolume: field(PortworxVolumeSourceSchema, { proto: 18, description: 'A Portworx volume.' }),
  azureDisk: field(AzureDiskVolumeSourceSchema, { proto: 16, description: 'An Azure data disk.' }),
  scaleIO: field(ScaleIOPersistentVolumeSourceSchema, { proto: 19, description: 'A ScaleIO volume.' }),
  local: field(LocalVolumeSourceSchema, {
    proto: 20,
    description: 'Directly attached storage with node affinity.',
  }),
  storageos: field(StorageOSPersistentVolumeSourceSchema, { proto: 21, description: 'A StorageOS volume.' }),
  csi: field(CSIPersistentVolumeSourceSchema, {
    proto: 22,
    description: 'A volume handled by a CSI driver.',
  }),
};
const persistentVolumeSourceNames = Object.keys(
  persistentVolumeSourceFields,
) as (keyof typeof persistentVolumeSourceFields)[];

export const VolumeNodeAffinitySchema = struct(core('VolumeNodeAffinity'), {
  required: field(NodeSelectorSchema, { proto: 1, description: 'Node constraints that must be met.' }),
});

export const PersistentVolumeSpecSchema = struct(
  core('PersistentVolumeSpec'),
  {
    capacity: map(quantity(), { proto: 1, description: "The volume's resources; only storage." }),
    ...inlined(
      { field: 'persistentVolumeSource', proto: 2, message: 'k8s.io.api.core.v1.PersistentVolumeSource' },
      persistentVolumeSourceFields,
    ),
    accessModes: list(str(), {
      proto: 3,
      description: 'Ways the volume can be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany.',
    }),
    claimRef: field(ObjectReferenceSchema, { proto: 4, description: 'The claim bound to this volume.' }),
    persistentVolumeReclaimPolicy: oneOf(['Delete', 'Recycle', 'Retain'], {
      proto: 5,
      default: 'Retain',
      description: 'What happens when the volume is released: Retain (default), Delete or Recycle.',
    }),
    storageClassName: str({ proto: 6, description: 'StorageClass the volume belongs to; empty for none.' }),
    mountOptions: list(str(), { proto: 7, description: 'Mount options, e.g. ro, soft.' }),
    volumeMode: oneOf(VOLUME_MODES, {
      proto: 8,
      default: 'Filesystem',
      description: 'Filesystem (default) or Block.',
    }),
    nodeAffinity: field(VolumeNodeAffinitySchema, {
      proto: 9,
      description: 'Nodes the volume can be accessed from.',
    }),
  },
  {
    validate: (spec, path) => {
      const errors = validateAccessModes(spec.accessModes, child(path, 'accessModes'), '');
      const capacity = spec.capacity ?? {};
      if (Object.keys(capacity).length === 0) errors.push(required(child(path, 'capacity'), ''));
      if (capacity.storage === undefined || Object.keys(capacity).length > 1) {
        errors.push(notSupported(child(path, 'capacity'), capacity, ['storage']));
      }
      errors.push(...validateStorageClassName(spec.storageClassName, child(path, 'storageClassName')));
      let count = 0;
      for (const name of persistentVolumeSourceNames) {
        if (spec[name] === undefined || spec[name] === null) continue;
        if (count > 0) errors.push(forbidden(child(path, name), 'may not specify more than 1 volume type'));
        count++;
      }
      if (count === 0) errors.push(required(path, 'must specify a volume type'));
      if (spec.local && !spec.nodeAffinity)
        errors.push(required(child(path, 'nodeAffinity'), 'Local volume requires node affinity'));
      return errors;
    },
  },
);
export type PersistentVolumeSpec = Static<typeof PersistentVolumeSpecSchema>;

export const PersistentVolumeStatusSchema = struct(core('PersistentVolumeStatus'), {
  phase: oneOf(['Pending', 'Available', 'Bound', 'Released', 'Failed'], {
    proto: 1,
    default: 'Pending',
    description: 'Phase of the volume: Pending, Available, Bound, Released or Failed.',
  }),
  message: str({ proto: 2, description: 'Why the volume is in this state.' }),
  reason: str({ proto: 3, description: 'Brief CamelCase reason of a failure.' }),
});

export const PersistentVolumeSchema = struct(
  core('PersistentVolume'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(PersistentVolumeSpecSchema, {
      proto: 2,
      default: {},
      description: 'Specification of the volume.',
    }),
    status: field(PersistentVolumeStatusSchema, {
      proto: 3,
      default: {},
      description: 'Current status of the volume.',
    }),
  },
  {
    description:
      'A piece of storage in the cluster, provisioned by an administrator or dynamically, which a claim binds.',
  },
);
export type PersistentVolume = Static<typeof PersistentVolumeSchema>;

function volumeSource(spec: PersistentVolumeSpec | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of persistentVolumeSourceNames) if (spec?.[name] !== undefined) out[name] = spec[name];
  return out;
}

const phaseOf = (obj: { metadata?: { deletionTimestamp?: string }; status?: { phase?: string } }): string =>
  obj.metadata?.deletionTimestamp ? 'Terminating' : (obj.status?.phase ?? '');

export const PersistentVolumeKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  singular: 'persistentvolume',
  shortNames: ['pv'],
  namespaced: false,
  generation: false,
  schema: PersistentVolumeSchema,
  subresources: { status: true },
  // Kept by Kubernetes for compatibility with old clients.
  selectableFields: { name: (pv) => pv.metadata?.name ?? '' },
  validateUpdate: (pv, old) => {
    const errors: FieldError[] = [];
    if (!deepEqual(volumeSource(pv.spec), volumeSource(old.spec))) {
      errors.push(
        forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'),
      );
    }
    if (pv.spec?.volumeMode !== old.spec?.volumeMode) {
      errors.push(invalid('volumeMode', pv.spec?.volumeMode, 'field is immutable'));
    }
    if (old.spec?.nodeAffinity && !deepEqual(pv.spec?.nodeAffinity, old.spec.nodeAffinity)) {
      errors.push(invalid('nodeAffinity', pv.spec?.nodeAffinity, 'field is immutable'));
    }
    return errors;
  },
  columns: [
    nameColumn(),
    {
      name: 'Capacity',
      type: 'string',
      description: "The volume's storage capacity.",
      cell: (pv) => String(pv.spec?.capacity?.storage ?? '0'),
    },
    {
      name: 'Access Modes',
      type: 'string',
      description: 'Ways the volume can be mounted.',
      cell: (pv) => accessModesString(pv.spec?.accessModes),
    },
    {
      name: 'Reclaim Policy',
      type: 'string',
      description: 'What happens when the volume is released.',
      cell: (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? '',
    },
    { name: 'Status', type: 'string', description: 'Phase of the volume.', cell: phaseOf },
    {
      name: 'Claim',
      type: 'string',
      description: 'The claim bound to the volume.',
      cell: (pv) =>
        pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '',
    },
    { name: 'StorageClass', type: 'string', description: 'StorageClass of the pv', cell: storageClassOf },
    volumeAttributesClassColumn(),
    {
      name: 'Reason',
      type: 'string',
      description: 'Brief reason of a failure.',
      cell: (pv) => pv.status?.reason ?? '',
    },
    ageColumn(),
    {
      name: 'VolumeMode',
      type: 'string',
      priority: 1,
      description: 'Filesystem or Block.',
      cell: (pv) => pv.spec?.volumeMode ?? '<unset>',
    },
  ],
});
