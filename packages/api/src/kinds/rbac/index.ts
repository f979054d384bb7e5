import { ClusterRoleBindingKind } from './cluster-role-binding';
import { ClusterRoleKind } from './cluster-role';
import { RoleBindingKind } from './role-binding';
import { RoleKind } from './role';

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

export { validateRBACName } from './rbac-name';
