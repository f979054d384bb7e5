import type { ObjectMeta } from '@orch/api';
import { StatusError } from '../errors/status-error';
import type { GenericStore, RequestScope } from '../registry/generic-store';
import { clone, jsonEqual, type ApiObject } from '../registry/object';
import { autoupdateAnnotation, bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-roles';
import {
  controllerClusterRoleBindings,
  controllerClusterRoles,
  controllerRoleBindings,
  controllerRoles,
} from './controller-roles';
import {
  rbacAPIVersion,
  type BindingObject,
  type PolicyRule,
  type RBACStores,
  type RoleObject,
  type Subject,
} from './rbac-objects';

const writeOptions = () => ({ fieldValidation: 'Ignore' as const, warnings: [] });

function scope(namespace: string): RequestScope {
  return {
    namespace,
    apiVersion: rbacAPIVersion,
    dryRun: false,
    user: { username: 'system:apiserver', groups: ['system:masters'] },
  };
}

/** Labels and annotations of `wanted` added to `target` (existing values kept, as Kubernetes' reconciliation merges them). */
function mergeMeta(target: { metadata: ObjectMeta }, wanted: { metadata: ObjectMeta }): void {
  const m = target.metadata;
  m.labels = { ...(wanted.metadata.labels ?? {}), ...(m.labels ?? {}) };
  m.annotations = { ...(wanted.metadata.annotations ?? {}), ...(m.annotations ?? {}) };
}

function reconcileRole(current: RoleObject, wanted: RoleObject): RoleObject {
  const out = clone(current);
  mergeMeta(out, wanted);
  const rules: PolicyRule[] = [...(out.rules ?? [])];
  for (const r of wanted.rules ?? []) if (!rules.some((x) => jsonEqual(x, r))) rules.push(r);
  out.rules = rules;
  if (wanted.aggregationRule) {
    const selectors = [...(out.aggregationRule?.clusterRoleSelectors ?? [])];
    for (const s of wanted.aggregationRule.clusterRoleSelectors ?? [])
      if (!selectors.some((x) => jsonEqual(x, s))) selectors.push(s);
    out.aggregationRule = { clusterRoleSelectors: selectors };
  }
  return out;
}

function reconcileBinding(current: BindingObject, wanted: BindingObject): BindingObject {
  const out = clone(current);
  mergeMeta(out, wanted);
  const subjects: Subject[] = [...(out.subjects ?? [])];
  for (const s of wanted.subjects ?? [])
    if (
      !subjects.some(
        (x) => x.kind === s.kind && x.name === s.name && (x.namespace ?? '') === (s.namespace ?? ''),
      )
    )
      subjects.push(s);
  out.subjects = subjects;
  return out;
}

/**
 * Creates `wanted` when missing; otherwise, unless its autoupdate annotation is "false", adds what
 * `reconcile` says is missing. A binding whose roleRef differs (roleRef cannot be updated) is replaced.
 */
export async function ensureObject<T extends RoleObject | BindingObject>(
  store: GenericStore,
  namespace: string,
  wanted: T,
  reconcile: (current: T, wanted: T) => T,
): Promise<'created' | 'updated' | 'unchanged'> {
  const name = wanted.metadata.name!;
  for (let attempt = 0; attempt < 5; attempt++) {
    let current: T;
    try {
      current = (await store.get(scope(namespace), name)) as unknown as T;
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
      try {
        await store.create(scope(namespace), clone(wanted) as unknown as ApiObject, writeOptions());
        return 'created';
      } catch (err) {
        if (err instanceof StatusError && err.code === 409) continue;
        throw err;
      }
    }
    if (current.metadata.annotations?.[autoupdateAnnotation] === 'false') return 'unchanged';
    if ('roleRef' in wanted && !jsonEqual((current as BindingObject).roleRef, wanted.roleRef)) {
      await store.delete(scope(namespace), name, {});
      continue;
    }
    const next = reconcile(current, wanted);
    if (jsonEqual(next, current)) return 'unchanged';
    try {
      await store.update(scope(namespace), name, () => next as unknown as ApiObject, writeOptions());
      return 'updated';
    } catch (e) {
      if (e instanceof StatusError && (e.code === 409 || e.code === 404)) continue;
      throw e;
    }
  }
  throw new Error(`could not reconcile ${wanted.kind ?? 'object'} "${name}": too many concurrent changes`);
}

/** Ensures a (cluster) role: created when missing, missing rules added. */
export function ensureRole(
  store: GenericStore,
  namespace: string,
  role: RoleObject,
): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureObject(store, namespace, role, reconcileRole);
}

/** Ensures a (cluster) role binding: created when missing, missing subjects added. */
export function ensureBinding(
  store: GenericStore,
  namespace: string,
  binding: BindingObject,
): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureObject(store, namespace, binding, reconcileBinding);
}

/**
 * Creates the default cluster roles and cluster role bindings (cluster-admin, admin/edit/view,
 * system:discovery, system:basic-user, system:public-info-viewer and the control-plane components'
 * roles), and the controllers' Roles and RoleBindings of a few namespaces, when missing and adds
 * missing rules and subjects to existing ones. Idempotent; run at server start.
 */
export async function ensureBootstrapPolicy(stores: RBACStores): Promise<void> {
  for (const role of [...bootstrapClusterRoles, ...controllerClusterRoles])
    await ensureRole(stores.clusterRoles, '', role);
  for (const b of [...bootstrapClusterRoleBindings, ...controllerClusterRoleBindings])
    await ensureBinding(stores.clusterRoleBindings, '', b);
  for (const role of controllerRoles) await ensureRole(stores.roles, role.metadata.namespace!, role);
  for (const b of controllerRoleBindings) await ensureBinding(stores.roleBindings, b.metadata.namespace!, b);
}
