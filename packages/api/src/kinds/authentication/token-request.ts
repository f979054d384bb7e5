import type { Static } from '@sinclair/typebox';
import { field, int64, list, required, str, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, type FieldError } from '../../validation/field-error';

/** Shortest lifetime a requested token may have (10 minutes). */
export const MIN_TOKEN_AGE_SECONDS = 10 * 60;
/** Longest lifetime a requested token may have (2^32 seconds). */
export const MAX_TOKEN_AGE_SECONDS = 2 ** 32;

export const BoundObjectReferenceSchema = struct('io.k8s.api.authentication.v1.BoundObjectReference', {
  kind: str({ proto: 1, description: 'Kind of the referent: Pod or Secret.' }),
  apiVersion: str({ proto: 2, description: 'API version of the referent.' }),
  name: str({ proto: 3, description: 'Name of the referent.' }),
  uid: str({ proto: 4, description: 'UID of the referent.' }),
});

const tokenRequestSpecFields = {
  audiences: required(list(str(), { proto: 1, description: 'Intended audiences of the token.' })),
  expirationSeconds: int64({
    proto: 4,
    default: 3600,
    description:
      'Requested lifetime of the token in seconds; the issuer may return another one. Defaults to 3600.',
  }),
  boundObjectRef: field(BoundObjectReferenceSchema, {
    proto: 3,
    description: 'Object the token is bound to; the token is invalid once that object is deleted.',
  }),
};
type TokenRequestSpecValue = Static<StructSchema<typeof tokenRequestSpecFields>>;

export const TokenRequestSpecSchema = struct(
  'io.k8s.api.authentication.v1.TokenRequestSpec',
  tokenRequestSpecFields,
  {
    validate: (spec, path) => validateTokenRequestSpec(spec, path),
  },
);

/** Kubernetes' ValidateTokenRequest. */
function validateTokenRequestSpec(spec: TokenRequestSpecValue, path: string): FieldError[] {
  const seconds = spec.expirationSeconds;
  if (seconds === undefined) return [];
  if (seconds < MIN_TOKEN_AGE_SECONDS) {
    return [
      invalid(child(path, 'expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'),
    ];
  }
  if (seconds > MAX_TOKEN_AGE_SECONDS) {
    return [
      invalid(
        child(path, 'expirationSeconds'),
        seconds,
        'may not specify a duration larger than 2^32 seconds',
      ),
    ];
  }
  return [];
}

export const TokenRequestStatusSchema = struct('io.k8s.api.authentication.v1.TokenRequestStatus', {
  token: required(str({ proto: 1, description: 'The issued token.' })),
  expirationTimestamp: required(time({ proto: 2, description: 'When the token expires.' })),
});

export const TokenRequestSchema = struct(
  'io.k8s.api.authentication.v1.TokenRequest',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(field(TokenRequestSpecSchema, { proto: 2, description: 'The token wanted.' })),
    status: field(TokenRequestStatusSchema, {
      proto: 3,
      description: 'The issued token, filled by the server.',
    }),
  },
  { description: 'Asks for a token of a service account; created as its token subresource.' },
);
export type TokenRequest = Static<typeof TokenRequestSchema>;

/** The body of the serviceaccounts/token subresource; not a resource of its own. */
export const TokenRequestKind = defineKind({
  group: 'authentication.k8s.io',
  versions: ['v1'],
  kind: 'TokenRequest',
  plural: 'tokenrequests',
  singular: 'tokenrequest',
  namespaced: true,
  schema: TokenRequestSchema,
  verbs: [],
  virtual: true,
});
