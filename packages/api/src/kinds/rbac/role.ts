import type { Static } from '@sinclair/typebox';
import { list, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { validateRBACName } from './rbac-name';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, type FieldError } from '../../validation/field-error';
import { nameColumn } from '../columns';
import { PolicyRuleSchema } from './policy-rule';
import { createdAtColumn } from './role-columns';

const roleFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  rules: list(PolicyRuleSchema, { proto: 2, description: 'The permissions of this role.' }),
};

/** The value a Role hook receives. */
type RoleValue = Static<StructSchema<typeof roleFields>>;

export const RoleSchema = struct('io.k8s.api.rbac.v1.Role', roleFields, {
  description: 'A namespaced set of permissions (policy rules), granted by RoleBindings.',
  validate: (role, path) => validateNamespacedRules(role.rules, child(path, 'rules')),
});
export type Role = Static<typeof RoleSchema>;

/** Namespaced roles cannot grant non-resource URLs. */
function validateNamespacedRules(rules: RoleValue['rules'], path: string): FieldError[] {
  const errors: FieldError[] = [];
  (rules ?? []).forEach((rule, i) => {
    if (rule.nonResourceURLs?.length) {
      errors.push(
        invalid(
          child(child(path, i), 'nonResourceURLs'),
          rule.nonResourceURLs,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    }
  });
  return errors;
}

export const RoleKind = defineKind({
  nameValidation: validateRBACName,
  group: 'rbac.authorization.k8s.io',
  versions: ['v1'],
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  namespaced: true,
  schema: RoleSchema,
  columns: [nameColumn(), createdAtColumn()],
});
