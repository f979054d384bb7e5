import type { Static } from '@sinclair/typebox';
import { field, int32, list, required, str, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isDNS1123Subdomain, isQualifiedName } from '../../util/names';
import {
  child,
  duplicate,
  invalid,
  required as requiredError,
  tooLong,
  type FieldError,
} from '../../validation/field-error';
import { validateNonnegative } from '../apps/int-or-percent';
import { ageColumn, nameColumn } from '../columns';

/** Longest CSI driver name. */
export const CSI_DRIVER_NAME_MAX_LENGTH = 63;
/** Longest node ID a driver may report. */
export const CSI_NODE_ID_MAX_LENGTH = 128;

export const VolumeNodeResourcesSchema = struct('io.k8s.api.storage.v1.VolumeNodeResources', {
  count: int32({
    proto: 1,
    description: 'Most volumes of this driver a node may use; unlimited when unset.',
  }),
});

const csiNodeDriverFields = {
  name: required(str({ proto: 1, description: 'Name of the CSI driver.' })),
  nodeID: required(str({ proto: 2, description: 'The node as the driver knows it.' })),
  topologyKeys: list(str(), { proto: 3, description: 'Topology label keys the driver supports.' }),
  allocatable: field(VolumeNodeResourcesSchema, {
    proto: 4,
    description: 'Volume resources of the driver available on the node.',
  }),
};
type CSINodeDriverValue = Static<StructSchema<typeof csiNodeDriverFields>>;

export const CSINodeDriverSchema = struct('io.k8s.api.storage.v1.CSINodeDriver', csiNodeDriverFields, {
  validate: (driver, path) => validateCSINodeDriver(driver, path),
});

/** Kubernetes' ValidateCSIDriverName. */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  if (name.length === 0) return [requiredError(path, '')];
  const errors: FieldError[] = [];
  if (name.length > CSI_DRIVER_NAME_MAX_LENGTH) errors.push(tooLong(path, name, CSI_DRIVER_NAME_MAX_LENGTH));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errors.push(invalid(path, name, msg));
  return errors;
}

function validateCSINodeDriver(driver: CSINodeDriverValue, path: string): FieldError[] {
  const errors = validateCSIDriverName(driver.name, child(path, 'name'));
  if (driver.nodeID === '') errors.push(requiredError(child(path, 'nodeID'), ''));
  else if (driver.nodeID.length > CSI_NODE_ID_MAX_LENGTH) {
    errors.push(
      invalid(child(path, 'nodeID'), driver.nodeID, `must be ${CSI_NODE_ID_MAX_LENGTH} characters or less`),
    );
  }
  errors.push(...validateNonnegative(driver.allocatable?.count, child(child(path, 'allocatable'), 'count')));
  const keys = new Set<string>();
  for (const key of driver.topologyKeys ?? []) {
    if (key === '') errors.push(requiredError(child(path, 'topologyKeys'), key));
    if (keys.has(key)) errors.push(duplicate(child(path, 'topologyKeys'), key));
    keys.add(key);
    for (const msg of isQualifiedName(key)) errors.push(invalid(child(path, 'topologyKeys'), key, msg));
  }
  return errors;
}

const csiNodeSpecFields = {
  drivers: required(
    list(CSINodeDriverSchema, {
      proto: 1,
      patchMergeKey: 'name',
      patchStrategy: 'merge',
      description: 'CSI drivers running on the node.',
    }),
  ),
};
type CSINodeSpecValue = Static<StructSchema<typeof csiNodeSpecFields>>;

export const CSINodeSpecSchema = struct('io.k8s.api.storage.v1.CSINodeSpec', csiNodeSpecFields, {
  validate: (spec, path) => validateUniqueDriverNames(spec, path),
});

function validateUniqueDriverNames(spec: CSINodeSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  spec.drivers.forEach((driver, i) => {
    if (names.has(driver.name))
      errors.push(duplicate(child(child(child(path, 'drivers'), i), 'name'), driver.name));
    names.add(driver.name);
  });
  return errors;
}

export const CSINodeSchema = struct(
  'io.k8s.api.storage.v1.CSINode',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(field(CSINodeSpecSchema, { proto: 2, description: 'The CSI drivers of the node.' })),
  },
  { description: 'The CSI drivers installed on a node, named after the node.' },
);
export type CSINode = Static<typeof CSINodeSchema>;

export const CSINodeKind = defineKind({
  group: 'storage.k8s.io',
  versions: ['v1'],
  kind: 'CSINode',
  plural: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  schema: CSINodeSchema,
  columns: [
    nameColumn(),
    {
      name: 'Drivers',
      type: 'integer',
      description: 'Number of CSI drivers on the node.',
      cell: (node) => node.spec.drivers.length,
    },
    ageColumn(),
  ],
});
