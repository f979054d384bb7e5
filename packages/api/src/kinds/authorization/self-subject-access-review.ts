import type { Static } from '@sinclair/typebox';
import { field, required, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { accessReviewAttributeFields, validateAttributesChoice } from './access-review-attributes';
import { SubjectAccessReviewStatusSchema } from './subject-access-review-status';

export const SelfSubjectAccessReviewSpecSchema = struct(
  'io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec',
  accessReviewAttributeFields(),
  { validate: (spec, path) => validateAttributesChoice(spec, path) },
);

export const SelfSubjectAccessReviewSchema = struct(
  'io.k8s.api.authorization.v1.SelfSubjectAccessReview',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(
      field(SelfSubjectAccessReviewSpecSchema, {
        proto: 2,
        description: 'The action to check for the caller.',
      }),
    ),
    status: field(SubjectAccessReviewStatusSchema, {
      proto: 3,
      description: 'The answer, filled by the server.',
    }),
  },
  { description: 'Asks whether the requester may perform an action.' },
);
export type SelfSubjectAccessReview = Static<typeof SelfSubjectAccessReviewSchema>;

export const SelfSubjectAccessReviewKind = defineKind({
  group: 'authorization.k8s.io',
  versions: ['v1'],
  kind: 'SelfSubjectAccessReview',
  plural: 'selfsubjectaccessreviews',
  singular: 'selfsubjectaccessreview',
  namespaced: false,
  schema: SelfSubjectAccessReviewSchema,
  verbs: ['create'],
  virtual: true,
});
