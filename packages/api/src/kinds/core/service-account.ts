import type { Static } from '@sinclair/typebox';
import { bool, list, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { ageColumn, nameColumn } from '../columns';
import { LocalObjectReferenceSchema, ObjectReferenceSchema } from './object-reference';

export const ServiceAccountSchema = struct(
  'io.k8s.api.core.v1.ServiceAccount',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    secrets: list(ObjectReferenceSchema, {
      proto: 2,
      patchMergeKey: 'name',
      patchStrategy: 'merge',
      description: 'Secrets pods running as this service account may use.',
    }),
    imagePullSecrets: list(LocalObjectReferenceSchema, {
      proto: 3,
      description:
        'Secrets in the same namespace used to pull images of pods running as this service account.',
    }),
    automountServiceAccountToken: bool({
      proto: 4,
      description: 'Whether pods running as this service account get an API token mounted.',
    }),
  },
  { description: 'An identity for processes that run in pods.' },
);
export type ServiceAccount = Static<typeof ServiceAccountSchema>;

export const ServiceAccountKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  namespaced: true,
  schema: ServiceAccountSchema,
  subresources: {
    token: { kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] },
  },
  columns: [
    nameColumn(),
    {
      name: 'Secrets',
      type: 'string',
      description: 'Number of secrets of the service account.',
      cell: (sa) => (sa.secrets ?? []).length,
    },
    ageColumn(),
  ],
});
