import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  BoundObjectReferenceSchema,
  SelfSubjectReviewKind,
  SelfSubjectReviewSchema,
  SelfSubjectReviewStatusSchema,
  TokenRequestKind,
  TokenRequestSpecSchema,
  TokenRequestStatusSchema,
  TokenReviewKind,
  TokenReviewSpecSchema,
  TokenReviewStatusSchema,
  UserInfoSchema,
  authenticationKinds,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);

describe('authentication.k8s.io/v1', () => {
  it('declares the reviews and the token request as virtual kinds', () => {
    expect(authenticationKinds.map((k) => [k.kind, k.verbs, k.virtual, k.namespaced])).toEqual([
      ['TokenReview', ['create'], true, false],
      ['TokenRequest', [], true, true],
      ['SelfSubjectReview', ['create'], true, false],
    ]);
    expect(SelfSubjectReviewKind.plural).toBe('selfsubjectreviews');
    expect(TokenReviewKind.group).toBe('authentication.k8s.io');
    expect(TokenRequestKind.plural).toBe('tokenrequests');
  });

  it('has Kubernetes protobuf numbers', () => {
    expect(protos(TokenReviewSpecSchema)).toEqual({ token: 1, audiences: 2 });
    expect(protos(TokenReviewStatusSchema)).toEqual({ authenticated: 1, user: 2, audiences: 4, error: 3 });
    expect(protos(UserInfoSchema)).toEqual({ username: 1, uid: 2, groups: 3, extra: 4 });
    expect(protos(TokenRequestSpecSchema)).toEqual({ audiences: 1, expirationSeconds: 4, boundObjectRef: 3 });
    expect(protos(TokenRequestStatusSchema)).toEqual({ token: 1, expirationTimestamp: 2 });
    expect(protos(BoundObjectReferenceSchema)).toEqual({ kind: 1, apiVersion: 2, name: 3, uid: 4 });
    expect(protos(SelfSubjectReviewSchema)).toEqual({ metadata: 1, status: 2 });
    expect(protos(SelfSubjectReviewStatusSchema)).toEqual({ userInfo: 1 });
  });

  it('wraps the extra values in ExtraValue', () => {
    const extra = UserInfoSchema.properties.extra as unknown as Record<string, unknown>;
    expect(extra[OrchKeyword.protoWrapper]).toBe('k8s.io.api.authentication.v1.ExtraValue');
  });

  it('defaults a token lifetime to one hour and bounds it', () => {
    const seconds = TokenRequestSpecSchema.properties.expirationSeconds as unknown as Record<string, unknown>;
    expect(seconds.default).toBe(3600);
    expect(seconds[OrchKeyword.protoType]).toBe('int64');
    expect(TokenRequestSpecSchema.required).toEqual(['audiences']);
    expect(run(TokenRequestSpecSchema, { audiences: [], expirationSeconds: 599 }, 'spec')).toEqual([
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ]);
    expect(run(TokenRequestSpecSchema, { audiences: [], expirationSeconds: 2 ** 32 + 1 }, 'spec')).toEqual([
      'spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ]);
    expect(run(TokenRequestSpecSchema, { audiences: [], expirationSeconds: 600 }, 'spec')).toEqual([]);
  });
});
