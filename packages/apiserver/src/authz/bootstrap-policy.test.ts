import { startSecuredServer, type SecuredServer } from '../reviews/access-test-support';
import { ensureBootstrapPolicy } from './bootstrap-policy';
import { rbacStores, type BindingObject, type PolicyRule, type RoleObject } from './rbac-objects';

const scope = { namespace: '', apiVersion: 'rbac.authorization.k8s.io/v1', dryRun: false };
const writeOptions = { fieldValidation: 'Ignore' as const, warnings: [] };

describe('the bootstrap policy and aggregated roles', () => {
  let s: SecuredServer;
  beforeAll(async () => {
    s = await startSecuredServer({ authorizationMode: 'RBAC' });
  });
  afterAll(() => s.close());

  it('keeps the rules the aggregation controller wrote into admin, edit and view at the next start', async () => {
    const stores = rbacStores(s.server);
    const written: Record<string, PolicyRule[]> = {
      admin: [{ verbs: ['create'], apiGroups: ['example.com'], resources: ['widgets'] }],
      edit: [{ verbs: ['update'], apiGroups: ['example.com'], resources: ['widgets'] }],
      view: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }],
    };
    const versions: Record<string, string | undefined> = {};
    for (const [name, rules] of Object.entries(written)) {
      const { object } = await stores.clusterRoles.update(
        scope,
        name,
        (cur) => ({ ...cur!, rules }),
        writeOptions,
      );
      versions[name] = (object as unknown as RoleObject).metadata.resourceVersion;
    }
    await ensureBootstrapPolicy(stores);
    for (const [name, rules] of Object.entries(written)) {
      const role = (await stores.clusterRoles.get(scope, name)) as unknown as RoleObject;
      expect({ name, rules: role.rules, rv: role.metadata.resourceVersion }).toEqual({
        name,
        rules,
        rv: versions[name],
      });
      expect(role.aggregationRule?.clusterRoleSelectors).toEqual([
        { matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${name}`]: 'true' } },
      ]);
    }
  });

  it('creates the node client approval roles of the csrapproving controller', async () => {
    const stores = rbacStores(s.server);
    for (const sub of ['nodeclient', 'selfnodeclient']) {
      const role = (await stores.clusterRoles.get(
        scope,
        `system:certificates.k8s.io:certificatesigningrequests:${sub}`,
      )) as unknown as RoleObject;
      expect(role.rules).toEqual([
        {
          verbs: ['create'],
          apiGroups: ['certificates.k8s.io'],
          resources: [`certificatesigningrequests/${sub}`],
        },
      ]);
    }
  });

  it("creates the bootstrap signer's and token cleaner's Roles and RoleBindings in their namespaces", async () => {
    const stores = rbacStores(s.server);
    const at = (namespace: string) => ({ ...scope, namespace });
    const role = async (namespace: string, name: string) =>
      ((await stores.roles.get(at(namespace), `system:controller:${name}`)) as unknown as RoleObject).rules;
    expect(await role('orch-system', 'bootstrap-signer')).toEqual([
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['secrets'] },
    ]);
    expect(await role('orch-system', 'token-cleaner')).toEqual([
      { verbs: ['delete', 'get', 'list', 'watch'], apiGroups: [''], resources: ['secrets'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
    ]);
    expect(await role('orch-public', 'bootstrap-signer')).toEqual([
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
    ]);
    for (const [namespace, name] of [
      ['orch-system', 'bootstrap-signer'],
      ['orch-system', 'token-cleaner'],
      ['orch-public', 'bootstrap-signer'],
    ] as const) {
      const b = (await stores.roleBindings.get(
        at(namespace),
        `system:controller:${name}`,
      )) as unknown as BindingObject;
      expect({ roleRef: b.roleRef, subjects: b.subjects }).toEqual({
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `system:controller:${name}` },
        subjects: [{ kind: 'ServiceAccount', name, namespace: 'orch-system' }],
      });
    }
  });
});
