import { ClusterRoleBindingKind } from './cluster-role-binding';
import { ClusterRoleKind } from './cluster-role';
import { RoleBindingKind } from './role-binding';
import { RoleKind } from './role';
import { validatePathSegmentName } from '../../util/names';
import type { NameValidator } from '../../validation/object-meta';

export * from './policy-rule';
export * from './role-ref';
export * from './subject';
export * from './role';
export * from './cluster-role';
export * from './role-binding';
export * from './cluster-role-binding';
export { validateRoleRef, validateRoleRefUpdate } from './binding-rules';
export { bindingColumns, createdAtColumn } from './role-columns';

export const rbacKinds = [RoleKind, ClusterRoleKind, RoleBindingKind, ClusterRoleBindingKind];

/** Kubernetes' ValidateRBACName: RBAC objects may be named with any path segment (e.g. `system:node`). */
export const validateRBACName: NameValidator = validatePathSegmentName;

/** Name rules of the RBAC kinds, by kind (compileKind's nameValidation). */
export const rbacNameValidation: Readonly<Record<string, NameValidator>> = {
  Role: validateRBACName,
  ClusterRole: validateRBACName,
  RoleBinding: validateRBACName,
  ClusterRoleBinding: validateRBACName,
};
