import type { Static, TSchema } from '@sinclair/typebox';
import {
  bool,
  field,
  inlined,
  int32,
  int64,
  list,
  quantity,
  required,
  str,
  stringMap,
  struct,
} from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { child, forbidden, invalid, required as requiredError } from '../../validation/field-error';
import { ObjectFieldSelectorSchema, ResourceFieldSelectorSchema, validateDownwardAPIFieldRef } from './env';
import {
  localObjectReferenceName,
  LocalObjectReferenceSchema,
  ObjectReferenceSchema,
} from './object-reference';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/** Default permission bits of files projected from secrets, config maps and the downward API (0644). */
export const DEFAULT_VOLUME_MODE = 0o644;
/** Pod fields a downward API volume may project (Kubernetes' validVolumeDownwardAPIFieldPathExpressions). */
export const VOLUME_DOWNWARD_API_FIELDS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
] as const;
const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

/** Kubernetes' validateLocalDescendingPath: relative, without `..` elements. */
export function validateLocalDescendingPath(target: string, path: string): FieldErrorLike[] {
  const errs: FieldErrorLike[] = [];
  if (target.startsWith('/')) errs.push(invalid(path, target, 'must be a relative path'));
  if (target.split('/').includes('..')) errs.push(invalid(path, target, "must not contain '..'"));
  return errs;
}

/** Kubernetes' validateLocalNonReservedPath: a descending path that does not start with `..` either. */
function validateLocalNonReservedPath(target: string, path: string): FieldErrorLike[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../'))
    errs.push(invalid(path, target, "must not start with '..'"));
  return errs;
}

function validateMode(mode: number | undefined, path: string): FieldErrorLike[] {
  return mode !== undefined && (mode < 0 || mode > 0o777) ? [invalid(path, mode, FILE_MODE_ERROR)] : [];
}

const fsType = (proto: number): TSchema =>
  str({ proto, description: 'Filesystem type to mount, e.g. ext4, xfs, ntfs.' });
const readOnly = (proto: number): TSchema =>
  bool({ proto, description: 'Force read-only mounts; false by default.' });

export const SecretReferenceSchema = struct(
  core('SecretReference'),
  {
    name: str({ proto: 1, description: 'Name of the secret.' }),
    namespace: str({ proto: 2, description: 'Namespace of the secret.' }),
  },
  { mapType: 'atomic' },
);
export type SecretReference = Static<typeof SecretReferenceSchema>;

export const KeyToPathSchema = struct(
  core('KeyToPath'),
  {
    key: required(str({ proto: 1, description: 'The key to project.' })),
    path: required(str({ proto: 2, description: 'Relative path of the file the key is written to.' })),
    mode: int32({ proto: 3, description: 'Permission bits of this file (0-0777).' }),
  },
  {
    validate: (v, path) => [
      ...validateLocalNonReservedPath(v.path, child(path, 'path')),
      ...validateMode(v.mode, child(path, 'mode')),
    ],
  },
);
export type KeyToPath = Static<typeof KeyToPathSchema>;

export const HostPathVolumeSourceSchema = struct(core('HostPathVolumeSource'), {
  path: required(str({ proto: 1, description: 'Path of the directory or file on the host.' })),
  type: str({
    proto: 2,
    default: '',
    enum: [
      '',
      'BlockDevice',
      'CharDevice',
      'Directory',
      'DirectoryOrCreate',
      'File',
      'FileOrCreate',
      'Socket',
    ],
    description: 'Type of the host path; empty skips checks.',
  }),
});
export type HostPathVolumeSource = Static<typeof HostPathVolumeSourceSchema>;

export const EmptyDirVolumeSourceSchema = struct(core('EmptyDirVolumeSource'), {
  medium: str({ proto: 1, description: 'Storage medium: empty for the node default, or Memory.' }),
  sizeLimit: quantity({
    proto: 2,
    featureGate: 'LocalStorageCapacityIsolation',
    description: 'Total amount of local storage allowed.',
  }),
});
export type EmptyDirVolumeSource = Static<typeof EmptyDirVolumeSourceSchema>;

export const GCEPersistentDiskVolumeSourceSchema = struct(core('GCEPersistentDiskVolumeSource'), {
  pdName: required(str({ proto: 1, description: 'Name of the persistent disk in GCE.' })),
  fsType: fsType(2),
  partition: int32({ proto: 3, description: 'Partition to mount; the whole disk when unset.' }),
  readOnly: readOnly(4),
});

export const AWSElasticBlockStoreVolumeSourceSchema = struct(core('AWSElasticBlockStoreVolumeSource'), {
  volumeID: required(str({ proto: 1, description: 'ID of the EBS volume.' })),
  fsType: fsType(2),
  partition: int32({ proto: 3, description: 'Partition to mount; the whole disk when unset.' }),
  readOnly: readOnly(4),
});

export const GitRepoVolumeSourceSchema = struct(core('GitRepoVolumeSource'), {
  repository: required(str({ proto: 1, description: 'Repository URL.' })),
  revision: str({ proto: 2, description: 'Commit hash to check out.' }),
  directory: str({ proto: 3, description: 'Target directory name.' }),
});

export const SecretVolumeSourceSchema = struct(
  core('SecretVolumeSource'),
  {
    secretName: str({ proto: 1, description: "Name of the secret in the pod's namespace." }),
    items: list(KeyToPathSchema, {
      proto: 2,
      description: 'Keys to project and their paths; all keys when empty.',
    }),
    defaultMode: int32({
      proto: 3,
      default: DEFAULT_VOLUME_MODE,
      description: 'Permission bits of created files; 0644 by default.',
    }),
    optional: bool({ proto: 4, description: 'Whether the secret or its keys may be missing.' }),
  },
  {
    validate: (v, path) => [
      ...(v.secretName ? [] : [requiredError(child(path, 'secretName'))]),
      ...validateMode(v.defaultMode, child(path, 'defaultMode')),
    ],
  },
);
export type SecretVolumeSource = Static<typeof SecretVolumeSourceSchema>;

export const NFSVolumeSourceSchema = struct(core('NFSVolumeSource'), {
  server: required(str({ proto: 1, description: 'Hostname or IP address of the NFS server.' })),
  path: required(str({ proto: 2, description: 'Path exported by the server.' })),
  readOnly: readOnly(3),
});

const iscsiFields = (secretRef: TSchema) => ({
  targetPortal: required(str({ proto: 1, description: 'iSCSI target portal (ip or ip:port).' })),
  iqn: required(str({ proto: 2, description: 'Target iSCSI qualified name.' })),
  lun: required(int32({ proto: 3, description: 'Target LUN number.' })),
  iscsiInterface: str({
    proto: 4,
    default: 'default',
    description: "iSCSI interface; 'default' (tcp) by default.",
  }),
  fsType: fsType(5),
  readOnly: readOnly(6),
  portals: list(str(), { proto: 7, description: 'Target portal list.' }),
  chapAuthDiscovery: bool({ proto: 8, description: 'Use CHAP authentication for discovery.' }),
  chapAuthSession: bool({ proto: 11, description: 'Use CHAP authentication for sessions.' }),
  secretRef: field(secretRef, { proto: 10, description: 'CHAP secret.' }),
  initiatorName: str({ proto: 12, description: 'Custom iSCSI initiator name.' }),
});
export const ISCSIVolumeSourceSchema = struct(
  core('ISCSIVolumeSource'),
  iscsiFields(LocalObjectReferenceSchema),
);
export const ISCSIPersistentVolumeSourceSchema = struct(
  core('ISCSIPersistentVolumeSource'),
  iscsiFields(SecretReferenceSchema),
);

export const GlusterfsVolumeSourceSchema = struct(core('GlusterfsVolumeSource'), {
  endpoints: required(
    str({ proto: 1, description: 'Name of the endpoints describing the Glusterfs topology.' }),
  ),
  path: required(str({ proto: 2, description: 'Glusterfs volume path.' })),
  readOnly: readOnly(3),
});
export const GlusterfsPersistentVolumeSourceSchema = struct(core('GlusterfsPersistentVolumeSource'), {
  endpoints: required(
    str({ proto: 1, description: 'Name of the endpoints describing the Glusterfs topology.' }),
  ),
  path: required(str({ proto: 2, description: 'Glusterfs volume path.' })),
  readOnly: readOnly(3),
  endpointsNamespace: str({
    proto: 4,
    description: 'Namespace of the endpoints; the claim namespace by default.',
  }),
});

export const PersistentVolumeClaimVolumeSourceSchema = struct(core('PersistentVolumeClaimVolumeSource'), {
  claimName: required(
    str({ proto: 1, description: "Name of a PersistentVolumeClaim in the pod's namespace." }),
  ),
  readOnly: readOnly(2),
});
export type PersistentVolumeClaimVolumeSource = Static<typeof PersistentVolumeClaimVolumeSourceSchema>;

const rbdFields = (secretRef: TSchema) => ({
  monitors: required(list(str(), { proto: 1, description: 'Ceph monitors.' })),
  image: required(str({ proto: 2, description: 'Rados image name.' })),
  fsType: fsType(3),
  pool: str({ proto: 4, default: 'rbd', description: 'Rados pool; rbd by default.' }),
  user: str({ proto: 5, default: 'admin', description: 'Rados user; admin by default.' }),
  keyring: str({
    proto: 6,
    default: '/etc/ceph/keyring',
    description: 'Keyring path; /etc/ceph/keyring by default.',
  }),
  secretRef: field(secretRef, { proto: 7, description: 'Authentication secret, overriding the keyring.' }),
  readOnly: readOnly(8),
});
export const RBDVolumeSourceSchema = struct(core('RBDVolumeSource'), rbdFields(LocalObjectReferenceSchema));
export const RBDPersistentVolumeSourceSchema = struct(
  core('RBDPersistentVolumeSource'),
  rbdFields(SecretReferenceSchema),
);

const flexFields = (secretRef: TSchema) => ({
  driver: required(str({ proto: 1, description: 'Name of the driver.' })),
  fsType: fsType(2),
  secretRef: field(secretRef, { proto: 3, description: 'Secret passed to the driver.' }),
  readOnly: readOnly(4),
  options: stringMap({ proto: 5, description: 'Extra driver options.' }),
});
export const FlexVolumeSourceSchema = struct(
  core('FlexVolumeSource'),
  flexFields(LocalObjectReferenceSchema),
);
export const FlexPersistentVolumeSourceSchema = struct(
  core('FlexPersistentVolumeSource'),
  flexFields(SecretReferenceSchema),
);

const cinderFields = (secretRef: TSchema) => ({
  volumeID: required(str({ proto: 1, description: 'Cinder volume ID.' })),
  fsType: fsType(2),
  readOnly: readOnly(3),
  secretRef: field(secretRef, { proto: 4, description: 'Secret with OpenStack connection parameters.' }),
});
export const CinderVolumeSourceSchema = struct(
  core('CinderVolumeSource'),
  cinderFields(LocalObjectReferenceSchema),
);
export const CinderPersistentVolumeSourceSchema = struct(
  core('CinderPersistentVolumeSource'),
  cinderFields(SecretReferenceSchema),
);

const cephfsFields = (secretRef: TSchema) => ({
  monitors: required(list(str(), { proto: 1, description: 'Ceph monitors.' })),
  path: str({ proto: 2, description: 'Mounted root; / by default.' }),
  user: str({ proto: 3, description: 'Rados user; admin by default.' }),
  secretFile: str({ proto: 4, description: 'Key ring path of the user.' }),
  secretRef: field(secretRef, { proto: 5, description: 'Authentication secret of the user.' }),
  readOnly: readOnly(6),
});
export const CephFSVolumeSourceSchema = struct(
  core('CephFSVolumeSource'),
  cephfsFields(LocalObjectReferenceSchema),
);
export const CephFSPersistentVolumeSourceSchema = struct(
  core('CephFSPersistentVolumeSource'),
  cephfsFields(SecretReferenceSchema),
);

export const FlockerVolumeSourceSchema = struct(core('FlockerVolumeSource'), {
  datasetName: str({ proto: 1, description: 'Name of the Flocker dataset (deprecated).' }),
  datasetUUID: str({ proto: 2, description: 'UUID of the Flocker dataset.' }),
});

export const DownwardAPIVolumeFileSchema = struct(
  core('DownwardAPIVolumeFile'),
  {
    path: required(str({ proto: 1, description: 'Relative path of the file to create.' })),
    fieldRef: field(ObjectFieldSelectorSchema, { proto: 2, description: 'Selects a field of the pod.' }),
    resourceFieldRef: field(ResourceFieldSelectorSchema, {
      proto: 3,
      description: 'Selects a resource of a container.',
    }),
    mode: int32({ proto: 4, description: 'Permission bits of this file (0-0777).' }),
  },
  {
    validate: (v, path) => [
      ...validateLocalNonReservedPath(v.path, child(path, 'path')),
      ...(v.fieldRef
        ? validateDownwardAPIFieldRef(v.fieldRef, VOLUME_DOWNWARD_API_FIELDS, child(path, 'fieldRef'))
        : []),
      ...validateMode(v.mode, child(path, 'mode')),
    ],
  },
);

export const DownwardAPIVolumeSourceSchema = struct(
  core('DownwardAPIVolumeSource'),
  {
    items: list(DownwardAPIVolumeFileSchema, { proto: 1, description: 'Files to create.' }),
    defaultMode: int32({
      proto: 2,
      default: DEFAULT_VOLUME_MODE,
      description: 'Permission bits of created files; 0644 by default.',
    }),
  },
  { validate: (v, path) => validateMode(v.defaultMode, child(path, 'defaultMode')) },
);

export const FCVolumeSourceSchema = struct(core('FCVolumeSource'), {
  targetWWNs: list(str(), { proto: 1, description: 'Target world wide names.' }),
  lun: int32({ proto: 2, description: 'Target LUN number.' }),
  fsType: fsType(3),
  readOnly: readOnly(4),
  wwids: list(str(), { proto: 5, description: 'Volume world wide identifiers.' }),
});

export const AzureFileVolumeSourceSchema = struct(core('AzureFileVolumeSource'), {
  secretName: required(str({ proto: 1, description: 'Secret holding the storage account name and key.' })),
  shareName: required(str({ proto: 2, description: 'Share name.' })),
  readOnly: readOnly(3),
});
export const AzureFilePersistentVolumeSourceSchema = struct(core('AzureFilePersistentVolumeSource'), {
  secretName: required(str({ proto: 1, description: 'Secret holding the storage account name and key.' })),
  shareName: required(str({ proto: 2, description: 'Share name.' })),
  readOnly: readOnly(3),
  secretNamespace: str({ proto: 4, description: "Namespace of the secret; the pod's by default." }),
});

export const ConfigMapVolumeSourceSchema = struct(
  core('ConfigMapVolumeSource'),
  {
    ...localObjectReferenceName('Name of the ConfigMap.'),
    items: list(KeyToPathSchema, {
      proto: 2,
      description: 'Keys to project and their paths; all keys when empty.',
    }),
    defaultMode: int32({
      proto: 3,
      default: DEFAULT_VOLUME_MODE,
      description: 'Permission bits of created files; 0644 by default.',
    }),
    optional: bool({ proto: 4, description: 'Whether the ConfigMap or its keys may be missing.' }),
  },
  {
    validate: (v, path) => [
      ...(v.name ? [] : [requiredError(child(path, 'name'))]),
      ...validateMode(v.defaultMode, child(path, 'defaultMode')),
    ],
  },
);
export type ConfigMapVolumeSource = Static<typeof ConfigMapVolumeSourceSchema>;

export const VsphereVirtualDiskVolumeSourceSchema = struct(core('VsphereVirtualDiskVolumeSource'), {
  volumePath: required(str({ proto: 1, description: 'Path of the vSphere volume vmdk.' })),
  fsType: fsType(2),
  storagePolicyName: str({ proto: 3, description: 'Storage policy (SPBM) profile name.' }),
  storagePolicyID: str({ proto: 4, description: 'Storage policy (SPBM) profile ID.' }),
});

export const QuobyteVolumeSourceSchema = struct(core('QuobyteVolumeSource'), {
  registry: required(str({ proto: 1, description: 'Quobyte registry services as host:port pairs.' })),
  volume: required(str({ proto: 2, description: 'Name of an existing Quobyte volume.' })),
  readOnly: readOnly(3),
  user: str({ proto: 4, description: 'User volume access is mapped to.' }),
  group: str({ proto: 5, description: 'Group volume access is mapped to.' }),
  tenant: str({ proto: 6, description: 'Tenant owning the volume.' }),
});

export const AzureDiskVolumeSourceSchema = struct(core('AzureDiskVolumeSource'), {
  diskName: required(str({ proto: 1, description: 'Name of the data disk in blob storage.' })),
  diskURI: required(str({ proto: 2, description: 'URI of the data disk in blob storage.' })),
  cachingMode: str({
    proto: 3,
    default: 'ReadWrite',
    description: 'Host caching mode: None, ReadOnly or ReadWrite.',
  }),
  fsType: str({ proto: 4, default: 'ext4', description: 'Filesystem type to mount; ext4 by default.' }),
  readOnly: bool({ proto: 5, default: false, description: 'Force read-only mounts; false by default.' }),
  kind: str({ proto: 6, default: 'Shared', description: 'Shared, Dedicated or Managed; Shared by default.' }),
});

export const PhotonPersistentDiskVolumeSourceSchema = struct(core('PhotonPersistentDiskVolumeSource'), {
  pdID: required(str({ proto: 1, description: 'ID of the Photon Controller persistent disk.' })),
  fsType: fsType(2),
});

export const ServiceAccountTokenProjectionSchema = struct(
  core('ServiceAccountTokenProjection'),
  {
    audience: str({ proto: 1, description: 'Intended audience of the token; the API server by default.' }),
    expirationSeconds: int64({
      proto: 2,
      default: 3600,
      description: 'Requested validity of the token; 1 hour by default.',
    }),
    path: required(str({ proto: 3, description: 'Path of the token file relative to the mount point.' })),
  },
  {
    validate: (v, path) => {
      const errs: FieldErrorLike[] = [];
      const seconds = v.expirationSeconds;
      const at = child(path, 'expirationSeconds');
      if (seconds !== undefined && seconds < 600) {
        errs.push(invalid(at, seconds, 'may not specify a duration less than 10 minutes'));
      } else if (seconds !== undefined && seconds > 2 ** 32) {
        errs.push(invalid(at, seconds, 'may not specify a duration larger than 2^32 seconds'));
      }
      if (!v.path) errs.push(requiredError(child(path, 'path')));
      else errs.push(...validateLocalNonReservedPath(v.path, child(path, 'path')));
      return errs;
    },
  },
);

export const SecretProjectionSchema = struct(core('SecretProjection'), {
  ...localObjectReferenceName('Name of the secret.'),
  items: list(KeyToPathSchema, {
    proto: 2,
    description: 'Keys to project and their paths; all keys when empty.',
  }),
  optional: bool({ proto: 4, description: 'Whether the secret or its keys may be missing.' }),
});

export const ConfigMapProjectionSchema = struct(core('ConfigMapProjection'), {
  ...localObjectReferenceName('Name of the ConfigMap.'),
  items: list(KeyToPathSchema, {
    proto: 2,
    description: 'Keys to project and their paths; all keys when empty.',
  }),
  optional: bool({ proto: 4, description: 'Whether the ConfigMap or its keys may be missing.' }),
});

export const DownwardAPIProjectionSchema = struct(core('DownwardAPIProjection'), {
  items: list(DownwardAPIVolumeFileSchema, { proto: 1, description: 'Files to create.' }),
});

const projectionSources = ['secret', 'downwardAPI', 'configMap', 'serviceAccountToken'] as const;

export const VolumeProjectionSchema = struct(
  core('VolumeProjection'),
  {
    secret: field(SecretProjectionSchema, { proto: 1, description: 'Secret data to project.' }),
    downwardAPI: field(DownwardAPIProjectionSchema, {
      proto: 2,
      description: 'Downward API data to project.',
    }),
    configMap: field(ConfigMapProjectionSchema, { proto: 3, description: 'ConfigMap data to project.' }),
    serviceAccountToken: field(ServiceAccountTokenProjectionSchema, {
      proto: 4,
      featureGate: 'TokenRequestProjection',
      description: 'Service account token to project.',
    }),
  },
  {
    // Kubernetes' validateProjectionSources: one source per projection, secrets and config maps named.
    validate: (v, path) => {
      const errs: FieldErrorLike[] = [];
      if (v.secret && !v.secret.name) errs.push(requiredError(child(child(path, 'secret'), 'name')));
      if (v.configMap && !v.configMap.name) errs.push(requiredError(child(child(path, 'configMap'), 'name')));
      const count = projectionSources.filter((n) => v[n] !== undefined && v[n] !== null).length;
      if (count > 1) errs.push(forbidden(path, 'may not specify more than 1 volume type'));
      return errs;
    },
  },
);

export const ProjectedVolumeSourceSchema = struct(
  core('ProjectedVolumeSource'),
  {
    sources: list(VolumeProjectionSchema, { proto: 1, description: 'Projections.' }),
    defaultMode: int32({
      proto: 2,
      default: DEFAULT_VOLUME_MODE,
      description: 'Permission bits of created files; 0644 by default.',
    }),
  },
  { validate: (v, path) => validateMode(v.defaultMode, child(path, 'defaultMode')) },
);

export const PortworxVolumeSourceSchema = struct(core('PortworxVolumeSource'), {
  volumeID: required(str({ proto: 1, description: 'ID of the Portworx volume.' })),
  fsType: fsType(2),
  readOnly: readOnly(3),
});

const scaleIOFields = (secretRef: TSchema) => ({
  gateway: required(str({ proto: 1, description: 'Host address of the ScaleIO API gateway.' })),
  system: required(str({ proto: 2, description: 'Name of the ScaleIO storage system.' })),
  secretRef: required(field(secretRef, { proto: 3, description: 'Secret for the ScaleIO user.' })),
  sslEnabled: bool({ proto: 4, description: 'Use SSL with the gateway.' }),
  protectionDomain: str({ proto: 5, description: 'ScaleIO protection domain.' }),
  storagePool: str({ proto: 6, description: 'ScaleIO storage pool.' }),
  storageMode: str({
    proto: 7,
    default: 'ThinProvisioned',
    description: 'ThickProvisioned or ThinProvisioned (default).',
  }),
  volumeName: str({ proto: 8, description: 'Name of an existing ScaleIO volume.' }),
  fsType: str({ proto: 9, default: 'xfs', description: 'Filesystem type to mount; xfs by default.' }),
  readOnly: readOnly(10),
});
export const ScaleIOVolumeSourceSchema = struct(
  core('ScaleIOVolumeSource'),
  scaleIOFields(LocalObjectReferenceSchema),
);
export const ScaleIOPersistentVolumeSourceSchema = struct(
  core('ScaleIOPersistentVolumeSource'),
  scaleIOFields(SecretReferenceSchema),
);

const storageOSFields = (secretRef: TSchema) => ({
  volumeName: str({ proto: 1, description: 'Name of the StorageOS volume.' }),
  volumeNamespace: str({ proto: 2, description: "StorageOS namespace of the volume; the pod's by default." }),
  fsType: fsType(3),
  readOnly: readOnly(4),
  secretRef: field(secretRef, { proto: 5, description: 'Secret holding the StorageOS API credentials.' }),
});
export const StorageOSVolumeSourceSchema = struct(
  core('StorageOSVolumeSource'),
  storageOSFields(LocalObjectReferenceSchema),
);
export const StorageOSPersistentVolumeSourceSchema = struct(
  core('StorageOSPersistentVolumeSource'),
  storageOSFields(ObjectReferenceSchema),
);

export const CSIVolumeSourceSchema = struct(core('CSIVolumeSource'), {
  driver: required(str({ proto: 1, description: 'Name of the CSI driver.' })),
  readOnly: readOnly(2),
  fsType: fsType(3),
  volumeAttributes: stringMap({ proto: 4, description: 'Driver specific properties.' }),
  nodePublishSecretRef: field(LocalObjectReferenceSchema, {
    proto: 5,
    description: 'Secret passed to NodePublishVolume.',
  }),
});

export const CSIPersistentVolumeSourceSchema = struct(core('CSIPersistentVolumeSource'), {
  driver: required(str({ proto: 1, description: 'Name of the CSI driver.' })),
  volumeHandle: required(str({ proto: 2, description: 'Volume name returned by the driver at creation.' })),
  readOnly: readOnly(3),
  fsType: fsType(4),
  volumeAttributes: stringMap({ proto: 5, description: 'Attributes of the volume to publish.' }),
  controllerPublishSecretRef: field(SecretReferenceSchema, {
    proto: 6,
    description: 'Secret for ControllerPublishVolume.',
  }),
  nodeStageSecretRef: field(SecretReferenceSchema, { proto: 7, description: 'Secret for NodeStageVolume.' }),
  nodePublishSecretRef: field(SecretReferenceSchema, {
    proto: 8,
    description: 'Secret for NodePublishVolume.',
  }),
  controllerExpandSecretRef: field(SecretReferenceSchema, {
    proto: 9,
    description: 'Secret for ControllerExpandVolume.',
  }),
});

export const LocalVolumeSourceSchema = struct(core('LocalVolumeSource'), {
  path: required(str({ proto: 1, description: 'Full path of the volume on the node.' })),
  fsType: fsType(2),
});

/** The members of VolumeSource in Kubernetes' validation order, with their protobuf numbers. */
const volumeSourceFields = {
  hostPath: field(HostPathVolumeSourceSchema, { proto: 1, description: 'A file or directory on the host.' }),
  emptyDir: field(EmptyDirVolumeSourceSchema, {
    proto: 2,
    description: "A temporary directory sharing the pod's lifetime.",
  }),
  gitRepo: field(GitRepoVolumeSourceSchema, { proto: 5, description: 'A git repository (deprecated).' }),
  gcePersistentDisk: field(GCEPersistentDiskVolumeSourceSchema, {
    proto: 3,
    description: 'A GCE persistent disk.',
  }),
  awsElasticBlockStore: field(AWSElasticBlockStoreVolumeSourceSchema, {
    proto: 4,
    description: 'An AWS EBS disk.',
  }),
  secret: field(SecretVolumeSourceSchema, { proto: 6, description: 'A secret.' }),
  nfs: field(NFSVolumeSourceSchema, { proto: 7, description: 'An NFS mount.' }),
  iscsi: field(ISCSIVolumeSourceSchema, { proto: 8, description: 'An iSCSI disk.' }),
  glusterfs: field(GlusterfsVolumeSourceSchema, { proto: 9, description: 'A Glusterfs mount.' }),
  flocker: field(FlockerVolumeSourceSchema, { proto: 15, description: 'A Flocker volume.' }),
  persistentVolumeClaim: field(PersistentVolumeClaimVolumeSourceSchema, {
    proto: 10,
    description: 'A PersistentVolumeClaim in the same namespace.',
  }),
  rbd: field(RBDVolumeSourceSchema, { proto: 11, description: 'A Rados block device.' }),
  quobyte: field(QuobyteVolumeSourceSchema, { proto: 21, description: 'A Quobyte mount.' }),
  cinder: field(CinderVolumeSourceSchema, { proto: 13, description: 'A Cinder volume.' }),
  cephfs: field(CephFSVolumeSourceSchema, { proto: 14, description: 'A CephFS mount.' }),
  downwardAPI: field(DownwardAPIVolumeSourceSchema, {
    proto: 16,
    description: 'Downward API data about the pod.',
  }),
  fc: field(FCVolumeSourceSchema, { proto: 17, description: 'A Fibre Channel volume.' }),
  flexVolume: field(FlexVolumeSourceSchema, {
    proto: 12,
    description: 'A volume handled by an exec based plugin.',
  }),
  azureFile: field(AzureFileVolumeSourceSchema, { proto: 18, description: 'An Azure File Service mount.' }),
  vsphereVolume: field(VsphereVirtualDiskVolumeSourceSchema, { proto: 20, description: 'A vSphere volume.' }),
  photonPersistentDisk: field(PhotonPersistentDiskVolumeSourceSchema, {
    proto: 23,
    description: 'A Photon Controller persistent disk.',
  }),
  portworxVolume: field(PortworxVolumeSourceSchema, { proto: 24, description: 'A Portworx volume.' }),
  azureDisk: field(AzureDiskVolumeSourceSchema, { proto: 22, description: 'An Azure data disk.' }),
  storageos: field(StorageOSVolumeSourceSchema, { proto: 27, description: 'A StorageOS volume.' }),
  configMap: field(ConfigMapVolumeSourceSchema, { proto: 19, description: 'A ConfigMap.' }),
  scaleIO: field(ScaleIOVolumeSourceSchema, { proto: 25, description: 'A ScaleIO volume.' }),
  projected: field(ProjectedVolumeSourceSchema, {
    proto: 26,
    description: 'Secrets, config maps and downward API together.',
  }),
  csi: field(CSIVolumeSourceSchema, {
    proto: 28,
    description: 'An ephemeral volume handled by a CSI driver.',
  }),
};
const volumeSourceNames = Object.keys(volumeSourceFields) as (keyof typeof volumeSourceFields)[];

/** VolumeSource on its own (used by kinds embedding it as a message, e.g. ephemeral volumes). */
export const VolumeSourceSchema = struct(core('VolumeSource'), volumeSourceFields, {
  patchStrategy: 'retainKeys',
});
export type VolumeSource = Static<typeof VolumeSourceSchema>;

export const VolumeSchema = struct(
  core('Volume'),
  {
    name: required(
      str({ proto: 1, format: 'dns1123-label', description: 'Name of the volume, unique within the pod.' }),
    ),
    ...inlined(
      { field: 'volumeSource', proto: 2, message: 'k8s.io.api.core.v1.VolumeSource' },
      volumeSourceFields,
    ),
  },
  {
    // A volume without a source is an emptyDir (Kubernetes' SetDefaults_Volume).
    defaults: (v) => {
      if (volumeSourceNames.every((n) => v[n] === undefined || v[n] === null)) v.emptyDir = {};
    },
    // Kubernetes' validateVolumeSource: exactly one source.
    validate: (v, path) => {
      const errs: FieldErrorLike[] = [];
      let count = 0;
      for (const n of volumeSourceNames) {
        if (v[n] === undefined || v[n] === null) continue;
        if (count > 0) errs.push(forbidden(child(path, n), 'may not specify more than 1 volume type'));
        else count++;
      }
      if (count === 0) errs.push(requiredError(path, 'must specify a volume type'));
      return errs;
    },
  },
);
export type Volume = Static<typeof VolumeSchema>;
