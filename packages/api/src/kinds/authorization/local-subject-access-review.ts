import type { Static } from '@sinclair/typebox';
import { field, required, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, type FieldError } from '../../validation/field-error';
import { SubjectAccessReviewSpecSchema } from './subject-access-review';
import { SubjectAccessReviewStatusSchema } from './subject-access-review-status';

const localSubjectAccessReviewFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  spec: required(
    field(SubjectAccessReviewSpecSchema, {
      proto: 2,
      description: 'The action to check; the namespace must be the namespace of the review.',
    }),
  ),
  status: field(SubjectAccessReviewStatusSchema, {
    proto: 3,
    description: 'The answer, filled by the server.',
  }),
};
type LocalSubjectAccessReviewValue = Static<StructSchema<typeof localSubjectAccessReviewFields>>;

export const LocalSubjectAccessReviewSchema = struct(
  'io.k8s.api.authorization.v1.LocalSubjectAccessReview',
  localSubjectAccessReviewFields,
  {
    description: 'Asks whether a user or group may perform an action in one namespace.',
    validate: (review, path) => validateLocalSubjectAccessReview(review, path),
  },
);
export type LocalSubjectAccessReview = Static<typeof LocalSubjectAccessReviewSchema>;

/** Kubernetes' ValidateLocalSubjectAccessReview rules beyond the spec's own. */
function validateLocalSubjectAccessReview(review: LocalSubjectAccessReviewValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const spec = child(path, 'spec');
  const attributes = review.spec.resourceAttributes;
  if (attributes && (attributes.namespace ?? '') !== (review.metadata?.namespace ?? '')) {
    errors.push(
      invalid(
        child(child(spec, 'resourceAttributes'), 'namespace'),
        attributes.namespace ?? '',
        'must match metadata.namespace',
      ),
    );
  }
  if (review.spec.nonResourceAttributes) {
    errors.push(
      invalid(
        child(spec, 'nonResourceAttributes'),
        review.spec.nonResourceAttributes,
        'disallowed on this kind of request',
      ),
    );
  }
  return errors;
}

export const LocalSubjectAccessReviewKind = defineKind({
  group: 'authorization.k8s.io',
  versions: ['v1'],
  kind: 'LocalSubjectAccessReview',
  plural: 'localsubjectaccessreviews',
  singular: 'localsubjectaccessreview',
  namespaced: true,
  schema: LocalSubjectAccessReviewSchema,
  verbs: ['create'],
  virtual: true,
});
