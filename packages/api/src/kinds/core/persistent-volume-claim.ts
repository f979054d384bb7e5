import { deepEqual } from '../../patch/json-value';
import type { GateEnabled } from '../../featuregates/compile-gated-fields';
import type { Static } from '@sinclair/typebox';
import { field, list, map, oneOf, quantity, str, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import {
  child,
  forbidden,
  invalid,
  key,
  notSupported,
  required,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { TypedLocalObjectReferenceSchema } from './object-reference';
import {
  accessModesString,
  BETA_STORAGE_CLASS_ANNOTATION,
  storageClassOf,
  validateAccessModes,
  validateStorageClassName,
  volumeAttributesClassColumn,
  VOLUME_MODES,
} from './persistent-volume';
import { quantityValue, ResourceRequirementsSchema } from './resources';
import { newQuantity, tryParseQuantity, type Quantity } from '../../util/quantity';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

/**
 * The storage quantity of a resource list (a claim's requests or status.capacity, a volume's
 * capacity): zero when absent, undefined when it does not parse.
 */
export function storageQuantity(list: Readonly<Record<string, unknown>> | undefined): Quantity | undefined {
  const value = list?.storage;
  if (value === undefined || value === null) return newQuantity(0, 'BinarySI');
  return tryParseQuantity(String(value));
}

/** Finalizer that keeps a claim while a scheduled pod uses it (pvc-protection). */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

const claimSpecFields = {
  accessModes: list(str(), { proto: 1, description: 'Access modes the volume should have.' }),
  selector: field(LabelSelectorSchema, {
    proto: 4,
    description: 'Label query over volumes to consider for binding.',
  }),
  resources: field(ResourceRequirementsSchema, {
    proto: 2,
    description: 'Minimum resources the volume should have.',
  }),
  volumeName: str({ proto: 3, description: 'The PersistentVolume bound to this claim.' }),
  storageClassName: str({ proto: 5, description: 'StorageClass required by the claim.' }),
  volumeMode: oneOf(VOLUME_MODES, {
    proto: 6,
    default: 'Filesystem',
    description: 'Filesystem (default) or Block.',
  }),
  dataSource: field(TypedLocalObjectReferenceSchema, {
    proto: 7,
    description: 'Existing VolumeSnapshot, PersistentVolumeClaim or populator to fill the new volume from.',
  }),
};
type ClaimSpecValue = Static<StructSchema<typeof claimSpecFields>>;

/** Kubernetes' ValidatePersistentVolumeClaimSpec. */
function validateClaimSpec(spec: ClaimSpecValue, path: string): FieldError[] {
  const errors = validateAccessModes(
    spec.accessModes,
    child(path, 'accessModes'),
    'at least 1 access mode is required',
  );
  const storagePath = key(child(path, 'resources'), 'storage');
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) errors.push(required(storagePath, ''));
  else {
    const v = quantityValue(storage);
    if (v !== undefined && v < 0)
      errors.push(invalid(storagePath, String(storage), 'must be greater than or equal to 0'));
    if (v !== undefined && v <= 0)
      errors.push(invalid(storagePath, String(storage), 'must be greater than zero'));
  }
  errors.push(...validateStorageClassName(spec.storageClassName, child(path, 'storageClassName')));
  if (spec.dataSource) {
    if (!spec.dataSource.name) errors.push(required(child(child(path, 'dataSource'), 'name'), ''));
    if (!spec.dataSource.kind) errors.push(required(child(child(path, 'dataSource'), 'kind'), ''));
    const group = spec.dataSource.apiGroup ?? '';
    if (group === '' && spec.dataSource.kind && spec.dataSource.kind !== 'PersistentVolumeClaim') {
      errors.push(notSupported(child(path, 'dataSource'), spec.dataSource.kind, ['PersistentVolumeClaim']));
    }
  }
  return errors;
}

export const PersistentVolumeClaimSpecSchema = struct(core('PersistentVolumeClaimSpec'), claimSpecFields, {
  validate: (spec, path) => validateClaimSpec(spec, path),
});
export type PersistentVolumeClaimSpec = Static<typeof PersistentVolumeClaimSpecSchema>;

export const PersistentVolumeClaimConditionSchema = struct(core('PersistentVolumeClaimCondition'), {
  type: str({ proto: 1, description: 'Type of the condition, e.g. Resizing, FileSystemResizePending.' }),
  status: str({ proto: 2, description: 'Status of the condition: True, False or Unknown.' }),
  lastProbeTime: time({ proto: 3, description: 'Last time the condition was probed.' }),
  lastTransitionTime: time({ proto: 4, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 5, description: 'Machine-readable reason of the last transition.' }),
  message: str({ proto: 6, description: 'Human-readable details of the last transition.' }),
});

export const PersistentVolumeClaimStatusSchema = struct(core('PersistentVolumeClaimStatus'), {
  phase: oneOf(['Pending', 'Bound', 'Lost'], {
    proto: 1,
    default: 'Pending',
    description: 'Phase of the claim: Pending, Bound or Lost.',
  }),
  accessModes: list(str(), { proto: 2, description: 'Access modes of the bound volume.' }),
  capacity: map(quantity(), { proto: 3, description: 'Resources of the bound volume.' }),
  conditions: list(PersistentVolumeClaimConditionSchema, {
    proto: 4,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Current conditions of the claim.',
  }),
});

export const PersistentVolumeClaimSchema = struct(
  core('PersistentVolumeClaim'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(PersistentVolumeClaimSpecSchema, {
      proto: 2,
      default: {},
      description: 'Characteristics of the volume requested.',
    }),
    status: field(PersistentVolumeClaimStatusSchema, {
      proto: 3,
      default: {},
      description: 'Current status of the claim.',
    }),
  },
  { description: 'A request for storage, bound to a PersistentVolume that meets it.' },
);
export type PersistentVolumeClaim = Static<typeof PersistentVolumeClaimSchema>;

/**
 * Kubernetes' ValidatePersistentVolumeClaimUpdate: the spec is fixed except volumeName once and, with
 * ExpandPersistentVolumes on, the storage request of a bound claim, which may only grow.
 */
function validateClaimUpdate(
  pvc: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
  enabled?: GateEnabled,
): FieldError[] {
  const errors: FieldError[] = [];
  const newSpec: ClaimSpecValue = structuredClone(pvc.spec ?? {});
  const oldSpec: ClaimSpecValue = structuredClone(old.spec ?? {});
  // binding sets volumeName once
  if (!old.spec?.volumeName) {
    if (newSpec.volumeName === undefined) delete oldSpec.volumeName;
    else oldSpec.volumeName = newSpec.volumeName;
  }
  const oldClass = old.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  const newClass = pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (oldClass !== newClass) {
    errors.push(
      invalid(
        key('metadata.annotations', BETA_STORAGE_CLASS_ANNOTATION),
        newClass ?? '',
        'field is immutable',
      ),
    );
  }
  if (!(enabled?.('ExpandPersistentVolumes') ?? true)) {
    if (!deepEqual(newSpec, oldSpec)) errors.push(forbidden('spec', 'field is immutable after creation'));
    return errors;
  }
  if (pvc.status?.phase === 'Bound' && newSpec.resources?.requests) {
    const oldStorage = old.spec?.resources?.requests?.storage;
    if (oldStorage === undefined) delete newSpec.resources.requests.storage;
    else newSpec.resources.requests.storage = oldStorage;
  }
  if (!deepEqual(newSpec, oldSpec)) {
    errors.push(forbidden('spec', 'is immutable after creation except resources.requests for bound claims'));
  }
  const oldSize = quantityValue(old.spec?.resources?.requests?.storage ?? '0');
  const newSize = quantityValue(pvc.spec?.resources?.requests?.storage ?? '0');
  if (oldSize !== undefined && newSize !== undefined && newSize < oldSize) {
    errors.push(forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  return errors;
}

export const PersistentVolumeClaimKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  namespaced: true,
  generation: false,
  schema: PersistentVolumeClaimSchema,
  subresources: { status: true },
  // Kept by Kubernetes for compatibility with old clients.
  selectableFields: { name: (pvc) => pvc.metadata?.name ?? '' },
  validateUpdate: validateClaimUpdate,
  columns: [
    nameColumn(),
    {
      name: 'Status',
      type: 'string',
      description: 'Phase of the claim.',
      cell: (pvc) => (pvc.metadata?.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '')),
    },
    {
      name: 'Volume',
      type: 'string',
      description: 'The volume bound to the claim.',
      cell: (pvc) => pvc.spec?.volumeName ?? '',
    },
    {
      name: 'Capacity',
      type: 'string',
      description: 'Capacity of the bound volume.',
      cell: (pvc) => (pvc.spec?.volumeName ? String(pvc.status?.capacity?.storage ?? '0') : ''),
    },
    {
      name: 'Access Modes',
      type: 'string',
      description: 'Access modes of the bound volume.',
      cell: (pvc) => (pvc.spec?.volumeName ? accessModesString(pvc.status?.accessModes) : ''),
    },
    { name: 'StorageClass', type: 'string', description: 'StorageClass of the pvc', cell: storageClassOf },
    volumeAttributesClassColumn(),
    ageColumn(),
    {
      name: 'VolumeMode',
      type: 'string',
      priority: 1,
      description: 'Filesystem or Block.',
      cell: (pvc) => pvc.spec?.volumeMode ?? '<unset>',
    },
  ],
});
