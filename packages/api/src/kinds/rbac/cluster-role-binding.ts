import type { Static } from '@sinclair/typebox';
import { field, list, required, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { validateRBACName } from './rbac-name';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, required as requiredError, type FieldError } from '../../validation/field-error';
import { validateRoleRef, validateRoleRefUpdate } from './binding-rules';
import { bindingColumns } from './role-columns';
import { RoleRefSchema } from './role-ref';
import { SubjectSchema } from './subject';

const clusterRoleBindingFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  subjects: list(SubjectSchema, {
    proto: 2,
    description: 'The users, groups and service accounts granted the role.',
  }),
  roleRef: required(field(RoleRefSchema, { proto: 3, description: 'A ClusterRole; cannot be updated.' })),
};

/** The value a ClusterRoleBinding hook receives. */
type ClusterRoleBindingValue = Static<StructSchema<typeof clusterRoleBindingFields>>;

export const ClusterRoleBindingSchema = struct(
  'io.k8s.api.rbac.v1.ClusterRoleBinding',
  clusterRoleBindingFields,
  {
    description: 'Grants the permissions of a ClusterRole to subjects across the cluster.',
    validate: (crb, path) => validateClusterRoleBinding(crb, path),
  },
);
export type ClusterRoleBinding = Static<typeof ClusterRoleBindingSchema>;

function validateClusterRoleBinding(crb: ClusterRoleBindingValue, path: string): FieldError[] {
  const errors = validateRoleRef(crb.roleRef, child(path, 'roleRef'), ['ClusterRole']);
  (crb.subjects ?? []).forEach((subject, i) => {
    // Service accounts of a cluster-wide binding must say which namespace they live in.
    if (subject.kind === 'ServiceAccount' && !subject.namespace) {
      errors.push(requiredError(child(child(child(path, 'subjects'), i), 'namespace')));
    }
  });
  return errors;
}

export const ClusterRoleBindingKind = defineKind({
  nameValidation: validateRBACName,
  group: 'rbac.authorization.k8s.io',
  versions: ['v1'],
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  schema: ClusterRoleBindingSchema,
  columns: bindingColumns(),
  validateUpdate: (crb, old) => validateRoleRefUpdate(crb.roleRef, old.roleRef),
});
