import type { Static } from '@sinclair/typebox';
import { bool, field, list, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { UserInfoSchema } from './user-info';

export const TokenReviewSpecSchema = struct('io.k8s.api.authentication.v1.TokenReviewSpec', {
  token: str({ proto: 1, description: 'The opaque bearer token.' }),
  audiences: list(str(), {
    proto: 2,
    description: 'Identifiers the token must be valid for; the apiserver audiences when empty.',
  }),
});

export const TokenReviewStatusSchema = struct('io.k8s.api.authentication.v1.TokenReviewStatus', {
  authenticated: bool({ proto: 1, description: 'True when the token is associated with a known user.' }),
  user: field(UserInfoSchema, { proto: 2, description: 'The user the token belongs to.' }),
  audiences: list(str(), { proto: 4, description: 'Audiences of the spec the token is valid for.' }),
  error: str({ proto: 3, description: 'Why the token could not be checked.' }),
});

export const TokenReviewSchema = struct(
  'io.k8s.api.authentication.v1.TokenReview',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(TokenReviewSpecSchema, { proto: 2, description: 'The token to authenticate.' }),
    status: field(TokenReviewStatusSchema, {
      proto: 3,
      description: 'Whether the token is valid, filled by the server.',
    }),
  },
  { description: 'Asks the server to authenticate a token and say whom it identifies.' },
);
export type TokenReview = Static<typeof TokenReviewSchema>;

export const TokenReviewKind = defineKind({
  group: 'authentication.k8s.io',
  versions: ['v1'],
  kind: 'TokenReview',
  plural: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  schema: TokenReviewSchema,
  verbs: ['create'],
  virtual: true,
});
