import type { Static } from '@sinclair/typebox';
import { field, required, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import {
  accessReviewAttributeFields,
  accessReviewSubjectFields,
  validateAccessReviewSubject,
  validateAttributesChoice,
} from './access-review-attributes';
import { SubjectAccessReviewStatusSchema } from './subject-access-review-status';

export const SubjectAccessReviewSpecSchema = struct(
  'io.k8s.api.authorization.v1.SubjectAccessReviewSpec',
  { ...accessReviewAttributeFields(), ...accessReviewSubjectFields() },
  {
    validate: (spec, path) => [
      ...validateAttributesChoice(spec, path),
      ...validateAccessReviewSubject(spec, path),
    ],
  },
);
export type SubjectAccessReviewSpec = Static<typeof SubjectAccessReviewSpecSchema>;

export const SubjectAccessReviewSchema = struct(
  'io.k8s.api.authorization.v1.SubjectAccessReview',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(field(SubjectAccessReviewSpecSchema, { proto: 2, description: 'The action to check.' })),
    status: field(SubjectAccessReviewStatusSchema, {
      proto: 3,
      description: 'The answer, filled by the server.',
    }),
  },
  { description: 'Asks whether a user or group may perform an action.' },
);
export type SubjectAccessReview = Static<typeof SubjectAccessReviewSchema>;

export const SubjectAccessReviewKind = defineKind({
  group: 'authorization.k8s.io',
  versions: ['v1'],
  kind: 'SubjectAccessReview',
  plural: 'subjectaccessreviews',
  singular: 'subjectaccessreview',
  namespaced: false,
  schema: SubjectAccessReviewSchema,
  verbs: ['create'],
  virtual: true,
});
