import type { Static } from '@sinclair/typebox';
import { bool, field, fieldsV1, int64, list, required, str, stringMap, struct, time } from '../schema/fields';

const meta = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;

export const OwnerReferenceSchema = struct(meta('OwnerReference'), {
  apiVersion: required(str({ proto: 5, description: 'API version of the referent.' })),
  kind: required(str({ proto: 1, description: 'Kind of the referent.' })),
  name: required(str({ proto: 3, description: 'Name of the referent.' })),
  uid: required(str({ proto: 4, description: 'UID of the referent.' })),
  controller: bool({ proto: 6, description: 'If true, this reference points to the managing controller.' }),
  blockOwnerDeletion: bool({
    proto: 7,
    description:
      'If true, the owner cannot be deleted from the key-value store until this reference is removed.',
  }),
});
export type OwnerReference = Static<typeof OwnerReferenceSchema>;

export const ManagedFieldsEntrySchema = struct(meta('ManagedFieldsEntry'), {
  manager: str({ proto: 1, description: 'Identifier of the workflow managing these fields.' }),
  operation: str({
    proto: 2,
    enum: ['Apply', 'Update'],
    description: 'The type of operation: Apply or Update.',
  }),
  apiVersion: str({ proto: 3, description: 'Version of the resource this field set applies to.' }),
  time: time({ proto: 4, description: 'When the entry was recorded.' }),
  fieldsType: str({ proto: 6, description: 'Format of the fields field; only FieldsV1.' }),
  fieldsV1: fieldsV1({ proto: 7, description: 'The field set in FieldsV1 format.' }),
  subresource: str({ proto: 8, description: 'The subresource used to update the object, if any.' }),
});
export type ManagedFieldsEntry = Static<typeof ManagedFieldsEntrySchema>;

export const ObjectMetaSchema = struct(meta('ObjectMeta'), {
  name: str({ proto: 1, omitZero: true, description: 'Name must be unique within a namespace.' }),
  generateName: str({
    proto: 2,
    omitZero: true,
    description: 'Optional prefix used by the server to generate a unique name.',
  }),
  namespace: str({
    proto: 3,
    omitZero: true,
    description: 'Namespace defines the space within which each name must be unique.',
  }),
  selfLink: str({ proto: 4, omitZero: true, description: 'Deprecated link to this object.' }),
  uid: str({ proto: 5, omitZero: true, description: 'Unique in time and space value for this object.' }),
  resourceVersion: str({
    proto: 6,
    omitZero: true,
    description: 'Opaque value of the internal version of this object.',
  }),
  generation: int64({
    proto: 7,
    omitZero: true,
    description: 'A sequence number representing a specific generation of the desired state.',
  }),
  creationTimestamp: time({ proto: 8, description: 'When this object was created.' }),
  deletionTimestamp: time({ proto: 9, description: 'When this resource will be deleted.' }),
  deletionGracePeriodSeconds: int64({
    proto: 10,
    description: 'Seconds allowed for this object to gracefully terminate before it is removed.',
  }),
  labels: stringMap({
    proto: 11,
    description: 'Map of string keys and values to organize and categorize objects.',
  }),
  annotations: stringMap({ proto: 12, description: 'Unstructured key value map of arbitrary metadata.' }),
  ownerReferences: list(OwnerReferenceSchema, {
    proto: 13,
    patchMergeKey: 'uid',
    patchStrategy: 'merge',
    listType: 'map',
    listMapKeys: ['uid'],
    omitZero: true,
    description: 'Objects depended on by this object.',
  }),
  finalizers: list(str(), {
    proto: 14,
    patchStrategy: 'merge',
    listType: 'set',
    omitZero: true,
    description: 'Must be empty before the object is deleted from the registry.',
  }),
  clusterName: str({
    proto: 15,
    omitZero: true,
    description: 'The name of the cluster which the object belongs to.',
  }),
  managedFields: list(ManagedFieldsEntrySchema, {
    proto: 17,
    listType: 'atomic',
    description: 'Maps workflow-id and version to the set of fields that are managed by that workflow.',
  }),
});
export type ObjectMeta = Static<typeof ObjectMetaSchema>;

export const ListMetaSchema = struct(meta('ListMeta'), {
  selfLink: str({ proto: 1 }),
  resourceVersion: str({ proto: 2, description: 'Version of the list, usable to start a watch.' }),
  continue: str({ proto: 3, description: 'Set when more results are available.' }),
  remainingItemCount: int64({ proto: 4, description: 'Number of items after this list chunk.' }),
});
export type ListMeta = Static<typeof ListMetaSchema>;

export const LabelSelectorRequirementSchema = struct(meta('LabelSelectorRequirement'), {
  key: required(str({ proto: 1, format: 'qualified-name' }), {}),
  operator: required(str({ proto: 2, enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] })),
  values: list(str(), { proto: 3, listType: 'atomic' }),
});

export const LabelSelectorSchema = struct(
  meta('LabelSelector'),
  {
    matchLabels: stringMap({ proto: 1, description: 'A map of {key,value} pairs.' }),
    matchExpressions: list(LabelSelectorRequirementSchema, { proto: 2, listType: 'atomic' }),
  },
  { mapType: 'atomic' },
);
export type LabelSelector = Static<typeof LabelSelectorSchema>;

export const apiVersionDescription =
  'The versioned schema of this representation: group/version, or the version alone in the core group.';
export const kindDescription = 'The kind this representation is of, in CamelCase.';

/**
 * The apiVersion and kind fields of a kind (Kubernetes' TypeMeta). They have no protobuf number: on
 * the wire they travel in the envelope around the message.
 */
export const typeMeta = () => ({
  apiVersion: str({ description: apiVersionDescription }),
  kind: str({ description: kindDescription }),
});

/** The metadata field of a kind: `metadata` with protobuf number 1 in every Kubernetes message. */
export const objectMeta = (): typeof ObjectMetaSchema =>
  field(ObjectMetaSchema, { proto: 1, description: 'Standard object metadata.' });

export const listMeta = (): typeof ListMetaSchema =>
  field(ListMetaSchema, { proto: 1, description: 'Standard list metadata.' });
