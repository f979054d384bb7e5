import type { Static } from '@sinclair/typebox';
import { bool, list, oneOf, required, str, stringMap, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isQualifiedName } from '../../util/names';
import {
  child,
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required as requiredError,
  tooLong,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { canonicalTopologySelectorTerm, TopologySelectorTermSchema } from './topology-selector-term';

export const ReclaimPolicies = ['Delete', 'Retain'] as const;
export const VolumeBindingModes = ['Immediate', 'WaitForFirstConsumer'] as const;
/** Annotations marking the default storage class. */
export const DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

const MAX_PROVISIONER_PARAMETER_SIZE = 256 * 1024;
const MAX_PROVISIONER_PARAMETER_LEN = 512;

const storageClassFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  provisioner: required(
    str({ proto: 2, description: 'Name of the volume plugin that provisions volumes of this class.' }),
  ),
  parameters: stringMap({ proto: 3, description: 'Parameters of the provisioner; cannot be updated.' }),
  reclaimPolicy: str({
    proto: 4,
    default: 'Delete',
    description: 'Reclaim policy of provisioned volumes: Delete or Retain. Defaults to Delete.',
  }),
  mountOptions: list(str(), {
    proto: 5,
    description: 'Mount options of provisioned volumes; not validated.',
  }),
  allowVolumeExpansion: bool({ proto: 6, description: 'Whether provisioned volumes may be expanded.' }),
  volumeBindingMode: oneOf(VolumeBindingModes, {
    proto: 7,
    default: 'Immediate',
    immutable: true,
    description:
      'When volumes are provisioned and bound: Immediate or WaitForFirstConsumer. Defaults to Immediate.',
  }),
  allowedTopologies: list(TopologySelectorTermSchema, {
    proto: 8,
    listType: 'atomic',
    description: 'Topology domains where volumes may be provisioned; anywhere when empty.',
  }),
};
type StorageClassValue = Static<StructSchema<typeof storageClassFields>>;

export const StorageClassSchema = struct('io.k8s.api.storage.v1.StorageClass', storageClassFields, {
  description: 'A class of storage: the provisioner and parameters that provision its volumes dynamically.',
  validate: (sc, path) => validateStorageClass(sc, path),
});
export type StorageClass = Static<typeof StorageClassSchema>;

/** Kubernetes' ValidateStorageClass (provisioner, parameters, reclaim policy, topologies). */
function validateStorageClass(sc: StorageClassValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const provisioner = child(path, 'provisioner');
  if (sc.provisioner === '') errors.push(requiredError(provisioner, ''));
  else {
    for (const msg of isQualifiedName(sc.provisioner.toLowerCase()))
      errors.push(invalid(provisioner, sc.provisioner, msg));
  }
  const params = Object.entries(sc.parameters ?? {});
  if (params.length > MAX_PROVISIONER_PARAMETER_LEN) {
    errors.push(
      tooLong(
        child(path, 'parameters'),
        'Provisioner Parameters exceeded max allowed',
        MAX_PROVISIONER_PARAMETER_LEN,
      ),
    );
  } else {
    let size = 0;
    for (const [k, v] of params) {
      if (k.length < 1) errors.push(invalid(child(path, 'parameters'), k, 'field can not be empty.'));
      size += Buffer.byteLength(k) + Buffer.byteLength(v);
    }
    if (size > MAX_PROVISIONER_PARAMETER_SIZE)
      errors.push(tooLong(child(path, 'parameters'), '', MAX_PROVISIONER_PARAMETER_SIZE));
  }
  if (sc.reclaimPolicy && !(ReclaimPolicies as readonly string[]).includes(sc.reclaimPolicy)) {
    errors.push(notSupported(child(path, 'reclaimPolicy'), sc.reclaimPolicy, ReclaimPolicies));
  }
  const seen: string[] = [];
  (sc.allowedTopologies ?? []).forEach((term, i) => {
    const canonical = canonicalTopologySelectorTerm(term);
    if (seen.includes(canonical)) {
      errors.push(duplicate(child(child(child(path, 'allowedTopologies'), i), 'matchLabelExpressions'), ''));
    }
    seen.push(canonical);
  });
  return errors;
}

/** Kubernetes' ValidateStorageClassUpdate: parameters, provisioner and reclaim policy are fixed. */
function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errors: FieldError[] = [];
  if (JSON.stringify(sortedEntries(sc.parameters)) !== JSON.stringify(sortedEntries(old.parameters))) {
    errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  }
  if (sc.provisioner !== old.provisioner)
    errors.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) {
    errors.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  }
  return errors;
}

function sortedEntries(map: Record<string, string> | undefined): [string, string][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether the class carries the default-class annotation (GA or beta spelling). */
export function isDefaultStorageClass(sc: StorageClass): boolean {
  const annotations = sc.metadata?.annotations ?? {};
  return (
    annotations[DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true' ||
    annotations[BETA_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true'
  );
}

export const StorageClassKind = defineKind({
  group: 'storage.k8s.io',
  versions: ['v1'],
  kind: 'StorageClass',
  plural: 'storageclasses',
  singular: 'storageclass',
  shortNames: ['sc'],
  namespaced: false,
  schema: StorageClassSchema,
  validateUpdate: validateStorageClassUpdate,
  columns: [
    {
      ...nameColumn(),
      cell: (sc: StorageClass) =>
        `${sc.metadata?.name ?? ''}${isDefaultStorageClass(sc) ? ' (default)' : ''}`,
    },
    {
      name: 'Provisioner',
      type: 'string',
      description: 'The volume plugin of the class.',
      cell: (sc) => sc.provisioner,
    },
    {
      name: 'ReclaimPolicy',
      type: 'string',
      description: 'Reclaim policy of provisioned volumes.',
      cell: (sc) => sc.reclaimPolicy ?? 'Delete',
    },
    {
      name: 'VolumeBindingMode',
      type: 'string',
      description: 'When volumes are provisioned and bound.',
      cell: (sc) => sc.volumeBindingMode ?? 'Immediate',
    },
    {
      name: 'AllowVolumeExpansion',
      type: 'string',
      description: 'Whether provisioned volumes may be expanded.',
      cell: (sc) => sc.allowVolumeExpansion ?? false,
    },
    ageColumn(),
  ],
});
