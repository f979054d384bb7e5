import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  LocalSubjectAccessReviewSchema,
  NonResourceAttributesSchema,
  ResourceAttributesSchema,
  ResourceRuleSchema,
  NonResourceRuleSchema,
  SelfSubjectAccessReviewSpecSchema,
  SelfSubjectRulesReviewSpecSchema,
  SubjectAccessReviewSpecSchema,
  SubjectAccessReviewStatusSchema,
  SubjectRulesReviewStatusSchema,
  authorizationKinds,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);

describe('authorization.k8s.io/v1', () => {
  it('declares the four reviews as create-only virtual kinds', () => {
    expect(authorizationKinds.map((k) => [k.kind, k.plural, k.namespaced, k.verbs, k.virtual])).toEqual([
      ['SubjectAccessReview', 'subjectaccessreviews', false, ['create'], true],
      ['SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, ['create'], true],
      ['LocalSubjectAccessReview', 'localsubjectaccessreviews', true, ['create'], true],
      ['SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, ['create'], true],
    ]);
  });

  it('has Kubernetes protobuf numbers', () => {
    expect(protos(SubjectAccessReviewSpecSchema)).toEqual({
      resourceAttributes: 1,
      nonResourceAttributes: 2,
      user: 3,
      groups: 4,
      extra: 5,
      uid: 6,
    });
    expect(protos(SelfSubjectAccessReviewSpecSchema)).toEqual({
      resourceAttributes: 1,
      nonResourceAttributes: 2,
    });
    expect(protos(SubjectAccessReviewStatusSchema)).toEqual({
      allowed: 1,
      denied: 4,
      reason: 2,
      evaluationError: 3,
    });
    expect(protos(ResourceAttributesSchema)).toEqual({
      namespace: 1,
      verb: 2,
      group: 3,
      version: 4,
      resource: 5,
      subresource: 6,
      name: 7,
    });
    expect(protos(NonResourceAttributesSchema)).toEqual({ path: 1, verb: 2 });
    expect(protos(SelfSubjectRulesReviewSpecSchema)).toEqual({ namespace: 1 });
    expect(protos(SubjectRulesReviewStatusSchema)).toEqual({
      resourceRules: 1,
      nonResourceRules: 2,
      incomplete: 3,
      evaluationError: 4,
    });
    expect(protos(ResourceRuleSchema)).toEqual({ verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4 });
    expect(protos(NonResourceRuleSchema)).toEqual({ verbs: 1, nonResourceURLs: 2 });
    const extra = SubjectAccessReviewSpecSchema.properties.extra as unknown as Record<string, unknown>;
    expect(extra[OrchKeyword.protoWrapper]).toBe('k8s.io.api.authorization.v1.ExtraValue');
  });

  it('validates access review specs with Kubernetes messages', () => {
    expect(
      run(SubjectAccessReviewSpecSchema, {}, 'spec').map((m) =>
        m.replace('Invalid value: null', 'Invalid value: "null"'),
      ),
    ).toEqual([
      'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      'spec.user: Invalid value: "": at least one of user or group must be specified',
    ]);
    expect(
      run(
        SubjectAccessReviewSpecSchema,
        { resourceAttributes: {}, nonResourceAttributes: { path: '/' }, groups: ['g'] },
        'spec',
      ).map((m) => m.replace(/Invalid value: .*: /, 'Invalid value: X: ')),
    ).toEqual([
      'spec.nonResourceAttributes: Invalid value: X: cannot be specified in combination with resourceAttributes',
    ]);
    expect(
      run(SubjectAccessReviewSpecSchema, { resourceAttributes: { verb: 'get' }, user: 'jane' }, 'spec'),
    ).toEqual([]);
    expect(
      run(
        SelfSubjectAccessReviewSpecSchema,
        { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
        'spec',
      ),
    ).toEqual([]);
  });

  it('ties a local review to its namespace', () => {
    const review = {
      metadata: { namespace: 'ns1' },
      spec: {
        resourceAttributes: { namespace: 'ns2', verb: 'get' },
        nonResourceAttributes: { path: '/' },
        user: 'u',
      },
    };
    expect(
      run(LocalSubjectAccessReviewSchema, review, '').map((m) =>
        m.replace(/Invalid value: .*: /, 'Invalid value: X: '),
      ),
    ).toEqual([
      'spec.resourceAttributes.namespace: Invalid value: X: must match metadata.namespace',
      'spec.nonResourceAttributes: Invalid value: X: disallowed on this kind of request',
    ]);
    expect(
      run(
        LocalSubjectAccessReviewSchema,
        { metadata: { namespace: 'ns1' }, spec: { resourceAttributes: { namespace: 'ns1' } } },
        '',
      ),
    ).toEqual([]);
  });
});
