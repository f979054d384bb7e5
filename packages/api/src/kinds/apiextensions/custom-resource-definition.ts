import type { Static } from '@sinclair/typebox';
import { bool, field, int32, list, oneOf, required, str, struct, time } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { Type } from '../../schema/type-builder';
import {
  defaultCustomResourceDefinitionSpec,
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from './crd-validation';

const v1 = (name: string): string => `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.${name}`;

/** A JSON schema (JSONSchemaProps) kept as written: validated by the CRD's rules, not field by field. */
const jsonSchemaProps = (description: string) =>
  Type.Unsafe<Record<string, any>>({
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    description,
  });

export const CustomResourceDefinitionNamesSchema = struct(v1('CustomResourceDefinitionNames'), {
  plural: required(
    str({
      description: 'The plural name of the resource: the path segment /apis/<group>/<version>/<plural>.',
    }),
  ),
  singular: str({ description: 'The singular name of the resource (lowercase kind by default).' }),
  shortNames: list(str(), {
    listType: 'atomic',
    description: 'Short names kubectl accepts for the resource.',
  }),
  kind: required(str({ description: 'The CamelCase kind of the resource.' })),
  listKind: str({ description: 'The kind of lists of the resource (`<kind>List` by default).' }),
  categories: list(str(), {
    listType: 'atomic',
    description: 'Grouped resources this resource belongs to (e.g. all).',
  }),
});
export type CustomResourceDefinitionNames = Static<typeof CustomResourceDefinitionNamesSchema>;

export const CustomResourceColumnDefinitionSchema = struct(v1('CustomResourceColumnDefinition'), {
  name: required(str({ description: 'A human readable name for the column.' })),
  type: required(str({ description: 'The OpenAPI type of the column.' })),
  format: str({ description: 'An optional OpenAPI format of the column.' }),
  description: str({ description: 'What the column shows.' }),
  priority: int32({ description: '0 for the default columns, more for the columns of -o wide.' }),
  jsonPath: required(str({ description: 'A simple JSON path evaluated against each object for the cell.' })),
});
export type CustomResourceColumnDefinition = Static<typeof CustomResourceColumnDefinitionSchema>;

export const CustomResourceSubresourceScaleSchema = struct(v1('CustomResourceSubresourceScale'), {
  specReplicasPath: required(str({ description: 'JSON path of the desired replicas (under .spec).' })),
  statusReplicasPath: required(str({ description: 'JSON path of the observed replicas (under .status).' })),
  labelSelectorPath: str({
    description: 'JSON path of the serialized label selector (under .spec or .status).',
  }),
});

export const CustomResourceSubresourcesSchema = struct(v1('CustomResourceSubresources'), {
  status: Type.Unsafe<Record<string, never>>({
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    description: 'Enables the status subresource.',
  }),
  scale: field(CustomResourceSubresourceScaleSchema, { description: 'Enables the scale subresource.' }),
});

export const CustomResourceDefinitionVersionSchema = struct(v1('CustomResourceDefinitionVersion'), {
  name: required(str({ description: 'The version name, e.g. v1, v2beta1.' })),
  served: required(bool({ description: 'The version is served by the REST API.' })),
  storage: required(bool({ description: 'Objects are persisted in this version; exactly one has it.' })),
  deprecated: bool({ description: 'Requests of this version get a deprecation warning.' }),
  deprecationWarning: str({ description: 'The warning of deprecated versions.' }),
  schema: struct(v1('CustomResourceValidation'), {
    openAPIV3Schema: jsonSchemaProps('The OpenAPI v3 schema validating, pruning and defaulting objects.'),
  }),
  subresources: field(CustomResourceSubresourcesSchema, { description: 'Subresources of this version.' }),
  additionalPrinterColumns: list(CustomResourceColumnDefinitionSchema, {
    listType: 'atomic',
    description: 'Columns of the Table (kubectl get) besides the name.',
  }),
  selectableFields: list(
    Type.Unsafe<Record<string, any>>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
    {
      listType: 'atomic',
      description: 'Fields usable in field selectors.',
    },
  ),
});
export type CustomResourceDefinitionVersion = Static<typeof CustomResourceDefinitionVersionSchema>;

export const CustomResourceDefinitionSpecSchema = struct(
  v1('CustomResourceDefinitionSpec'),
  {
    group: required(str({ description: 'The API group of the resource.' })),
    names: required(
      field(CustomResourceDefinitionNamesSchema, { description: 'The names the resource is served under.' }),
    ),
    scope: required(str({ description: 'Cluster or Namespaced.' })),
    versions: required(
      list(CustomResourceDefinitionVersionSchema, {
        listType: 'atomic',
        description: 'The versions of the resource.',
      }),
    ),
    conversion: struct(v1('CustomResourceConversion'), {
      strategy: str({ description: 'None (only apiVersion changes) or Webhook.', default: 'None' }),
      webhook: Type.Unsafe<Record<string, any>>({
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
      }),
    }),
    preserveUnknownFields: bool({ description: 'Deprecated: keep unknown fields (must be false in v1).' }),
  },
  { defaults: (spec) => defaultCustomResourceDefinitionSpec(spec) },
);
export type CustomResourceDefinitionSpec = Static<typeof CustomResourceDefinitionSpecSchema>;

export const CustomResourceDefinitionConditionSchema = struct(v1('CustomResourceDefinitionCondition'), {
  type: required(
    str({
      description:
        'Established, NamesAccepted, NonStructuralSchema, Terminating, KubernetesAPIApprovalPolicyConformant.',
    }),
  ),
  status: required(oneOf(['True', 'False', 'Unknown'], { description: 'Status of the condition.' })),
  lastTransitionTime: time({ description: 'When the condition last changed status.' }),
  reason: str({ description: 'Machine readable reason of the last transition.' }),
  message: str({ description: 'Human readable details of the last transition.' }),
});
export type CustomResourceDefinitionCondition = Static<typeof CustomResourceDefinitionConditionSchema>;

export const CustomResourceDefinitionStatusSchema = struct(v1('CustomResourceDefinitionStatus'), {
  conditions: list(CustomResourceDefinitionConditionSchema, {
    listType: 'map',
    listMapKeys: ['type'],
    description: 'Observations of the definition.',
  }),
  acceptedNames: field(CustomResourceDefinitionNamesSchema, { description: 'The names actually served.' }),
  storedVersions: list(str(), {
    listType: 'atomic',
    description: 'Versions objects were ever persisted in.',
  }),
});
export type CustomResourceDefinitionStatus = Static<typeof CustomResourceDefinitionStatusSchema>;

export const CustomResourceDefinitionSchema = struct(
  v1('CustomResourceDefinition'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(
      field(CustomResourceDefinitionSpecSchema, { description: 'The resource the definition adds.' }),
    ),
    status: field(CustomResourceDefinitionStatusSchema, {
      description: 'What the server made of the definition.',
    }),
  },
  {
    description: 'Adds a resource served by the API server (apiextensions.k8s.io/v1).',
    validate: (crd, path) => validateCustomResourceDefinition(crd, path),
  },
);
export type CustomResourceDefinition = Static<typeof CustomResourceDefinitionSchema>;

/** The finalizer the API server puts on a definition being deleted until its objects are gone. */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export const CustomResourceDefinitionKind = defineKind({
  group: 'apiextensions.k8s.io',
  versions: ['v1'],
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  schema: CustomResourceDefinitionSchema,
  subresources: { status: true },
  jsonOnly: true,
  validateUpdate: (crd, old) => validateCustomResourceDefinitionUpdate(crd, old),
});
