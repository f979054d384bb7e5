import type { LabelSelectorLike, ObjectMeta, RESTMapper, RESTMapping } from '@orch/api';
import type { GenericStore } from '../registry/generic-store';

export const rbacGroup = 'rbac.authorization.k8s.io';
export const rbacAPIVersion = `${rbacGroup}/v1`;

/** The JSON shape of rbac.authorization.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** A Role or ClusterRole. */
export interface RoleObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  rules?: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorLike[] };
}

/** A RoleBinding or ClusterRoleBinding. */
export interface BindingObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
}

/** The stores of the four RBAC kinds. */
export interface RBACStores {
  roles: GenericStore;
  clusterRoles: GenericStore;
  roleBindings: GenericStore;
  clusterRoleBindings: GenericStore;
}

/** The RBAC stores of a server; fails when the server does not serve rbac.authorization.k8s.io/v1. */
export function rbacStores(server: {
  mapper: RESTMapper;
  storeFor(mapping: RESTMapping): GenericStore;
}): RBACStores {
  const store = (resource: string): GenericStore => {
    const mapping = server.mapper.forResource(rbacGroup, 'v1', resource);
    if (!mapping)
      throw new Error(`RBAC authorization needs ${resource}.${rbacGroup}/v1, which is not served`);
    return server.storeFor(mapping);
  };
  return {
    roles: store('roles'),
    clusterRoles: store('clusterroles'),
    roleBindings: store('rolebindings'),
    clusterRoleBindings: store('clusterrolebindings'),
  };
}
