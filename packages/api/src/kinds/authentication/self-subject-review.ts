import type { Static } from '@sinclair/typebox';
import { field, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { UserInfoSchema } from './user-info';

export const SelfSubjectReviewStatusSchema = struct('io.k8s.api.authentication.v1.SelfSubjectReviewStatus', {
  userInfo: field(UserInfoSchema, { proto: 1, description: 'The user attributes of the requesting user.' }),
});

export const SelfSubjectReviewSchema = struct(
  'io.k8s.api.authentication.v1.SelfSubjectReview',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    status: field(SelfSubjectReviewStatusSchema, {
      proto: 2,
      description: 'The user attributes of the requesting user, filled by the server.',
    }),
  },
  { description: 'Answers with the user information the server authenticated the requester as.' },
);
export type SelfSubjectReview = Static<typeof SelfSubjectReviewSchema>;

/** Who the server takes the requester for (`kubectl auth whoami`). */
export const SelfSubjectReviewKind = defineKind({
  group: 'authentication.k8s.io',
  versions: ['v1'],
  kind: 'SelfSubjectReview',
  plural: 'selfsubjectreviews',
  singular: 'selfsubjectreview',
  namespaced: false,
  schema: SelfSubjectReviewSchema,
  verbs: ['create'],
  virtual: true,
});
