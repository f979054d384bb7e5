import { everythingFields, everythingLabels, labelSelectorAsSelector } from '@orch/api';
import type { GenericStore } from '../registry/generic-store';
import type { ListOptions } from '../registry/list-options';
import type { WatchHandle } from '../storage/storage';
import {
  rbacAPIVersion,
  type BindingObject,
  type PolicyRule,
  type RBACStores,
  type RoleObject,
} from './rbac-objects';

const watchEverything: ListOptions = {
  labelSelector: everythingLabels(),
  fieldSelector: everythingFields(),
  limit: 0,
  allowWatchBookmarks: false,
  watch: true,
};

const retryDelayMs = 500;

/** The objects of one store kept current by a watch (re-listed and re-watched when the watch fails). */
class Reflector<T extends { metadata: { name?: string; namespace?: string } }> {
  items = new Map<string, T>();
  private handle?: WatchHandle;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly store: GenericStore,
    private readonly onChange: () => void,
  ) {}

  async start(): Promise<void> {
    const fresh = new Map<string, T>();
    const handle = await this.store.watch(
      { namespace: '', apiVersion: rbacAPIVersion, dryRun: false },
      watchEverything,
      {
        event: (type, object) => {
          const obj = object as T;
          const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
          if (type === 'ADDED' || type === 'MODIFIED') fresh.set(key, obj);
          else if (type === 'DELETED') fresh.delete(key);
          else return;
          if (this.items === fresh) this.onChange();
        },
        error: () => {
          if (this.handle !== handle) return;
          handle.stop();
          this.scheduleRestart();
        },
      },
    );
    if (this.stopped) {
      handle.stop();
      return;
    }
    this.handle = handle;
    this.items = fresh;
    this.onChange();
  }

  private scheduleRestart(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      this.start().catch(() => this.scheduleRestart());
    }, retryDelayMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.handle?.stop();
  }
}

/**
 * Roles, cluster roles and their bindings in memory, kept current by watching their stores: the RBAC
 * authorizer never reads storage per request. Aggregated cluster roles (aggregationRule) are
 * evaluated here as the union of their own rules and the rules of every cluster role their selectors
 * match, recomputed when any cluster role changes.
 */
export class PolicyCache {
  private readonly roles: Reflector<RoleObject>;
  private readonly clusterRoles: Reflector<RoleObject>;
  private readonly roleBindings: Reflector<BindingObject>;
  private readonly clusterRoleBindings: Reflector<BindingObject>;
  private bindingsByNamespace?: Map<string, BindingObject[]>;
  private aggregated = new Map<string, PolicyRule[]>();
  private changes = 0;

  constructor(stores: RBACStores) {
    const changed = (also: () => void) => () => {
      this.changes++;
      also();
    };
    this.roles = new Reflector(
      stores.roles,
      changed(() => undefined),
    );
    this.clusterRoles = new Reflector(
      stores.clusterRoles,
      changed(() => this.aggregated.clear()),
    );
    this.roleBindings = new Reflector(
      stores.roleBindings,
      changed(() => (this.bindingsByNamespace = undefined)),
    );
    this.clusterRoleBindings = new Reflector(
      stores.clusterRoleBindings,
      changed(() => undefined),
    );
  }

  /** Changes whenever any role, cluster role or binding does: what was decided before may differ now. */
  get generation(): number {
    return this.changes;
  }

  /** Lists and starts watching the four kinds. */
  async start(): Promise<void> {
    await Promise.all([
      this.roles.start(),
      this.clusterRoles.start(),
      this.roleBindings.start(),
      this.clusterRoleBindings.start(),
    ]);
  }

  stop(): void {
    for (const r of [this.roles, this.clusterRoles, this.roleBindings, this.clusterRoleBindings]) r.stop();
  }

  clusterRoleBindingList(): Iterable<BindingObject> {
    return this.clusterRoleBindings.items.values();
  }

  roleBindingList(namespace: string): readonly BindingObject[] {
    if (!this.bindingsByNamespace) {
      const index = new Map<string, BindingObject[]>();
      for (const b of this.roleBindings.items.values()) {
        const ns = b.metadata.namespace ?? '';
        let list = index.get(ns);
        if (!list) index.set(ns, (list = []));
        list.push(b);
      }
      this.bindingsByNamespace = index;
    }
    return this.bindingsByNamespace.get(namespace) ?? [];
  }

  /** The rules of a Role, or undefined when it does not exist. */
  roleRules(namespace: string, name: string): PolicyRule[] | undefined {
    const role = this.roles.items.get(`${namespace}/${name}`);
    return role ? (role.rules ?? []) : undefined;
  }

  /** The effective rules of a ClusterRole (aggregation applied), or undefined when it does not exist. */
  clusterRoleRules(name: string): PolicyRule[] | undefined {
    const cached = this.aggregated.get(name);
    if (cached) return cached;
    const role = this.clusterRoles.items.get(`/${name}`);
    if (!role) return undefined;
    const rules = this.effectiveRules(role, new Set([name]));
    this.aggregated.set(name, rules);
    return rules;
  }

  private effectiveRules(role: RoleObject, visiting: Set<string>): PolicyRule[] {
    const own = role.rules ?? [];
    const selectors = role.aggregationRule?.clusterRoleSelectors ?? [];
    if (!selectors.length) return own;
    const matchers = selectors.map((s) => labelSelectorAsSelector(s));
    const rules = [...own];
    const seen = new Set(own.map((r) => JSON.stringify(r)));
    const sorted = [...this.clusterRoles.items.values()].sort((a, b) =>
      (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
    );
    for (const other of sorted) {
      const otherName = other.metadata.name ?? '';
      if (visiting.has(otherName)) continue;
      if (!matchers.some((m) => m.matches(other.metadata.labels))) continue;
      for (const rule of this.effectiveRules(other, new Set([...visiting, otherName]))) {
        const key = JSON.stringify(rule);
        if (seen.has(key)) continue;
        seen.add(key);
        rules.push(rule);
      }
    }
    return rules;
  }
}
