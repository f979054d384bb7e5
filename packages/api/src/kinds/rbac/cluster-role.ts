import type { Static } from '@sinclair/typebox';
import { field, list, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { validateRBACName } from './rbac-name';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import { child, required, type FieldError } from '../../validation/field-error';
import { nameColumn } from '../columns';
import { PolicyRuleSchema } from './policy-rule';
import { createdAtColumn } from './role-columns';

const aggregationRuleFields = {
  clusterRoleSelectors: list(field(LabelSelectorSchema), {
    proto: 1,
    description: 'Selectors of the cluster roles whose rules are aggregated into this one.',
  }),
};

/** The value a AggregationRule hook receives. */
type AggregationRuleValue = Static<StructSchema<typeof aggregationRuleFields>>;

export const AggregationRuleSchema = struct('io.k8s.api.rbac.v1.AggregationRule', aggregationRuleFields, {
  validate: (rule, path) => validateAggregationRule(rule, path),
});
export type AggregationRule = Static<typeof AggregationRuleSchema>;

function validateAggregationRule(rule: AggregationRuleValue, path: string): FieldError[] {
  if (rule.clusterRoleSelectors?.length) return [];
  return [
    required(
      child(path, 'clusterRoleSelectors'),
      'at least one clusterRoleSelector required if aggregationRule is non-nil',
    ),
  ];
}

export const ClusterRoleSchema = struct(
  'io.k8s.api.rbac.v1.ClusterRole',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    rules: list(PolicyRuleSchema, {
      proto: 2,
      description: 'The permissions of this role; managed by the controller when aggregationRule is set.',
    }),
    aggregationRule: field(AggregationRuleSchema, {
      proto: 3,
      description: 'Builds the rules of this role from other cluster roles.',
    }),
  },
  {
    description:
      'A cluster-wide set of permissions (policy rules), granted by RoleBindings and ClusterRoleBindings.',
  },
);
export type ClusterRole = Static<typeof ClusterRoleSchema>;

export const ClusterRoleKind = defineKind({
  nameValidation: validateRBACName,
  group: 'rbac.authorization.k8s.io',
  versions: ['v1'],
  kind: 'ClusterRole',
  plural: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  schema: ClusterRoleSchema,
  columns: [nameColumn(), createdAtColumn()],
});
