import { ClusterRoleKind, type ClusterRole, type PolicyRule } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { startSecuredCluster, type SecuredCluster } from './securedCluster';

jest.setTimeout(90_000);

/** The rules of `roles` in order, each once (as the lists are compared: by their JSON). */
function union(...roles: ClusterRole[]): PolicyRule[] {
  const seen = new Set<string>();
  return roles
    .flatMap((r) => r.rules ?? [])
    .filter((rule) => {
      const key = JSON.stringify(rule);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const WIDGETS_RULE: PolicyRule = {
  verbs: ['create', 'delete'],
  apiGroups: ['example.com'],
  resources: ['widgets'],
};

describe('clusterrole-aggregation', () => {
  let cluster: SecuredCluster;
  const roles = () => clientFor(cluster.rest, ClusterRoleKind);
  const get = (name: string) => roles().get(name);
  const has = (role: ClusterRole, rule: PolicyRule) =>
    (role.rules ?? []).some((r) => JSON.stringify(r) === JSON.stringify(rule));

  beforeAll(async () => {
    cluster = await startSecuredCluster(['clusterrole-aggregation']);
  });
  afterAll(async () => {
    await cluster?.close();
  });

  test('admin, edit and view hold the rules of the roles aggregated into them, in order', async () => {
    const [aggAdmin, aggEdit, aggView] = await Promise.all(
      ['system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view'].map(get),
    );
    // view ← aggregate-to-view; edit ← aggregate-to-edit, aggregate-to-view, view; admin ← edit, aggregate-to-*
    const view = await eventually(async () => {
      const v = await get('view');
      return v.rules?.length ? v : undefined;
    }, 'view to be aggregated');
    expect(view.rules).toEqual(union(aggView!));
    const edit = await eventually(async () => {
      const e = await get('edit');
      return JSON.stringify(e.rules) === JSON.stringify(union(aggEdit!, aggView!, view)) ? e : undefined;
    }, 'edit to be aggregated');
    await eventually(async () => {
      const a = await get('admin');
      return JSON.stringify(a.rules) === JSON.stringify(union(edit, aggAdmin!, aggEdit!, aggView!))
        ? a
        : undefined;
    }, 'admin to be aggregated');
    const admin = await get('admin');
    expect(admin.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toContainEqual([
      'clusterrole-aggregation-controller',
      'Apply',
    ]);
    // as kubectl shows it
    const yaml = await cluster.kubectl('get', 'clusterrole', 'admin', '-o', 'yaml');
    expect(yaml).toContain('aggregationRule:');
    expect(yaml).toMatch(/- rolebindings\n\s+- roles\n/);
    expect(yaml).toContain('- pods/exec');
  });

  test("a user's role labelled aggregate-to-edit shows up in edit and through it in admin, and goes with it", async () => {
    await roles().create({
      metadata: { name: 'widgets-edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
      rules: [WIDGETS_RULE],
    } as ClusterRole);
    await eventually(async () => (has(await get('edit'), WIDGETS_RULE) ? true : undefined), 'edit');
    await eventually(async () => (has(await get('admin'), WIDGETS_RULE) ? true : undefined), 'admin');
    expect(has(await get('view'), WIDGETS_RULE)).toBe(false);
    // kubectl sees it in edit
    expect(
      await cluster.kubectl('get', 'clusterrole', 'edit', '-o', 'jsonpath={.rules[*].resources}'),
    ).toContain('widgets');

    await cluster.kubectl('delete', 'clusterrole', 'widgets-edit');
    await eventually(
      async () => (has(await get('edit'), WIDGETS_RULE) ? undefined : true),
      'edit to lose it',
    );
    await eventually(
      async () => (has(await get('admin'), WIDGETS_RULE) ? undefined : true),
      'admin to lose it',
    );
  });

  test('rules written by hand into an aggregated role are put back', async () => {
    const before = await get('view');
    await roles().update({ ...before, rules: [WIDGETS_RULE] });
    await eventually(
      async () =>
        JSON.stringify((await get('view')).rules) === JSON.stringify(before.rules) ? true : undefined,
      'view to be restored',
    );
  });
});
