import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { compileKind } from '../../validation';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  ClusterRoleBindingKind,
  ClusterRoleBindingSchema,
  ClusterRoleKind,
  ClusterRoleSchema,
  AggregationRuleSchema,
  PolicyRuleSchema,
  RoleBindingKind,
  RoleBindingSchema,
  RoleKind,
  RoleRefSchema,
  RoleSchema,
  SubjectSchema,
  rbacKinds,
  type ClusterRoleBinding,
  type RoleBinding,
  type Subject,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path = ''): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);
const applyDefaults = <T>(schema: TSchema, value: T): T => {
  structHooks(schema)!.defaults!(value);
  return value;
};

describe('rbac.authorization.k8s.io/v1', () => {
  it('declares the four kinds with their scopes', () => {
    expect(rbacKinds.map((k) => [k.kind, k.plural, k.namespaced])).toEqual([
      ['Role', 'roles', true],
      ['ClusterRole', 'clusterroles', false],
      ['RoleBinding', 'rolebindings', true],
      ['ClusterRoleBinding', 'clusterrolebindings', false],
    ]);
  });

  it('has Kubernetes protobuf numbers', () => {
    expect(protos(PolicyRuleSchema)).toEqual({
      verbs: 1,
      apiGroups: 2,
      resources: 3,
      resourceNames: 4,
      nonResourceURLs: 5,
    });
    expect(protos(RoleSchema)).toMatchObject({ metadata: 1, rules: 2 });
    expect(protos(ClusterRoleSchema)).toMatchObject({ metadata: 1, rules: 2, aggregationRule: 3 });
    expect(protos(AggregationRuleSchema)).toEqual({ clusterRoleSelectors: 1 });
    expect(protos(RoleBindingSchema)).toMatchObject({ metadata: 1, subjects: 2, roleRef: 3 });
    expect(protos(ClusterRoleBindingSchema)).toMatchObject({ metadata: 1, subjects: 2, roleRef: 3 });
    expect(protos(SubjectSchema)).toEqual({ kind: 1, apiGroup: 2, name: 3, namespace: 4 });
    expect(protos(RoleRefSchema)).toEqual({ apiGroup: 1, kind: 2, name: 3 });
    expect(RoleBindingSchema.required).toEqual(['roleRef']);
  });

  it('validates policy rules with Kubernetes messages', () => {
    expect(run(PolicyRuleSchema, {}, 'rules[0]')).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
    expect(
      run(PolicyRuleSchema, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, 'rules[0]'),
    ).toEqual([]);
    expect(
      run(PolicyRuleSchema, { verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/healthz'] }, 'r'),
    ).toEqual([
      'r.nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
    expect(run(RoleSchema, { rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] })).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs',
    ]);
    expect(run(ClusterRoleSchema.properties.aggregationRule, {}, 'aggregationRule')).toEqual([
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
  });

  it('defaults the api group of users, groups and role references', () => {
    expect(applyDefaults<Subject>(SubjectSchema, { kind: 'User', name: 'jane' })).toEqual({
      kind: 'User',
      name: 'jane',
      apiGroup: 'rbac.authorization.k8s.io',
    });
    expect(applyDefaults<Subject>(SubjectSchema, { kind: 'Group', name: 'devs' }).apiGroup).toBe(
      'rbac.authorization.k8s.io',
    );
    expect(
      applyDefaults<Subject>(SubjectSchema, { kind: 'ServiceAccount', name: 'default' }).apiGroup,
    ).toBeUndefined();
    expect(applyDefaults(RoleRefSchema, { apiGroup: '', kind: 'Role', name: 'r' }).apiGroup).toBe(
      'rbac.authorization.k8s.io',
    );
  });

  it('validates subjects and role references', () => {
    expect(run(SubjectSchema, { kind: 'Robot', name: 'x' }, 'subjects[0]')).toEqual([
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
    expect(run(SubjectSchema, { kind: 'User', name: 'x', apiGroup: 'example.com' }, 'subjects[0]')).toEqual([
      'subjects[0].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    ]);
    expect(run(SubjectSchema, { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'x' }, 's')[1]).toBe(
      's.apiGroup: Unsupported value: "x": supported values: ""',
    );
    const rb: RoleBinding = {
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Pod', name: '' },
    };
    expect(run(RoleBindingSchema, rb)).toEqual([
      'roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
    const crb: ClusterRoleBinding = {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    };
    expect(run(ClusterRoleBindingSchema, crb)).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
  });

  it('forbids changing roleRef', () => {
    const old: RoleBinding = { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a' } };
    const changed: RoleBinding = { roleRef: { ...old.roleRef, name: 'b' } };
    expect(
      RoleBindingKind.validateUpdate!(changed, old).map((e) => errorMessage(e as FieldError))[0],
    ).toMatch(/^roleRef: Invalid value: .*: cannot change roleRef$/);
    expect(RoleBindingKind.validateUpdate!({ ...old, subjects: [] }, old)).toEqual([]);
    expect(
      ClusterRoleBindingKind.validateUpdate!(changed as ClusterRoleBinding, old as ClusterRoleBinding),
    ).toHaveLength(1);
  });

  it('prints roles and bindings as kubectl does', () => {
    const now = new Date('2021-01-01T01:00:00Z');
    const meta = { name: 'view', creationTimestamp: '2021-01-01T00:00:00Z' };
    expect(RoleKind.columns!.map((c) => [c.name, c.type, c.cell({ metadata: meta }, now)])).toEqual([
      ['Name', 'string', 'view'],
      ['Created At', 'date', '2021-01-01T00:00:00Z'],
    ]);
    expect(ClusterRoleKind.columns!.map((c) => c.name)).toEqual(['Name', 'Created At']);
    const rb: RoleBinding = {
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'jane' },
        { kind: 'User', name: 'joe' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'ns1' },
      ],
    };
    expect(RoleBindingKind.columns!.map((c) => [c.name, c.priority ?? 0, c.cell(rb, now)])).toEqual([
      ['Name', 0, 'view'],
      ['Role', 0, 'ClusterRole/view'],
      ['Age', 0, '60m'],
      ['Users', 1, 'jane, joe'],
      ['Groups', 1, 'devs'],
      ['ServiceAccounts', 1, 'ns1/default'],
    ]);
  });
});

describe('RBAC names', () => {
  it('accepts path segments such as system:node, through the compiled kind', () => {
    const compiled = compileKind(ClusterRoleKind);
    expect(compiled.validate({ metadata: { name: 'system:aggregate-to-view' }, rules: [] })).toEqual([]);
    expect(compiled.validate({ metadata: { name: 'a/b' }, rules: [] }).map((e) => errorMessage(e))).toEqual([
      expect.stringMatching(/^metadata.name: Invalid value: "a\/b": may not contain '\/'$/),
    ]);
  });
});
