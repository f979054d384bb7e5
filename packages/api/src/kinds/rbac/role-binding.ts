import type { Static } from '@sinclair/typebox';
import { field, list, required, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { validateRBACName } from './rbac-name';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child } from '../../validation/field-error';
import { validateRoleRef, validateRoleRefUpdate } from './binding-rules';
import { bindingColumns } from './role-columns';
import { RoleRefSchema } from './role-ref';
import { SubjectSchema } from './subject';

export const RoleBindingSchema = struct(
  'io.k8s.api.rbac.v1.RoleBinding',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    subjects: list(SubjectSchema, {
      proto: 2,
      description: 'The users, groups and service accounts granted the role.',
    }),
    roleRef: required(
      field(RoleRefSchema, {
        proto: 3,
        description: 'A Role in this namespace or a ClusterRole; cannot be updated.',
      }),
    ),
  },
  {
    description: 'Grants the permissions of a Role or ClusterRole to subjects within a namespace.',
    validate: (rb, path) => validateRoleRef(rb.roleRef, child(path, 'roleRef'), ['Role', 'ClusterRole']),
  },
);
export type RoleBinding = Static<typeof RoleBindingSchema>;

export const RoleBindingKind = defineKind({
  nameValidation: validateRBACName,
  group: 'rbac.authorization.k8s.io',
  versions: ['v1'],
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  schema: RoleBindingSchema,
  columns: bindingColumns(),
  validateUpdate: (rb, old) => validateRoleRefUpdate(rb.roleRef, old.roleRef),
});
