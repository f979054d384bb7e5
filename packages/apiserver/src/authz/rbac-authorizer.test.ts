import { call, startSecuredServer, type SecuredServer } from '../reviews/access-test-support';
import { ensureBootstrapPolicy } from './bootstrap-policy';
import { rbacStores } from './rbac-objects';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const admin = 'admin-token';

async function create(s: SecuredServer, path: string, body: unknown): Promise<void> {
  const r = await call(s, path, { body, token: admin });
  if (r.status !== 201) throw new Error(`create ${path}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** Polls until `check` holds (the policy cache follows the store through a watch). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 1000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - start;
}

describe('RBAC authorization', () => {
  let s: SecuredServer;

  beforeAll(async () => {
    s = await startSecuredServer({
      authorizationMode: 'RBAC',
      tokenFile: [
        'jane-token,jane,jane-uid',
        'bob-token,bob,bob-uid,"dev,ops"',
        'sam-token,sam,sam-uid',
      ].join('\n'),
    });
  });
  afterAll(() => s.close());

  it('lets system:masters do anything and forbids others with Kubernetes messages', async () => {
    expect((await call(s, '/api/v1/namespaces/default/configmaps', { token: admin })).status).toBe(200);
    const denied = await call(s, '/api/v1/namespaces/default/pods', { token: 'jane-token' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
      details: { kind: 'pods' },
    });
    const named = await call(s, '/apis/apps/v1/namespaces/default/deployments/web', { token: 'jane-token' });
    expect(named.body.message).toBe(
      'deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "default"',
    );
    const cluster = await call(s, '/api/v1/nodes', { token: 'jane-token' });
    expect(cluster.body.message).toBe(
      'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const anonymous = await call(s, '/api/v1/namespaces');
    expect(anonymous.body.message).toBe(
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it('answers non-resource requests by the bootstrap discovery and public-info roles', async () => {
    expect((await call(s, '/version')).status).toBe(200);
    expect((await call(s, '/healthz')).status).toBe(200);
    expect((await call(s, '/apis', { token: 'jane-token' })).status).toBe(200);
    const anonymousDiscovery = await call(s, '/apis');
    expect(anonymousDiscovery.status).toBe(403);
    expect(anonymousDiscovery.body.message).toBe(
      'forbidden: User "system:anonymous" cannot get path "/apis"',
    );
    expect((await call(s, '/metrics', { token: 'jane-token' })).body.message).toBe(
      'forbidden: User "jane" cannot get path "/metrics"',
    );
  });

  it('applies a RoleBinding in its namespace only, a ClusterRoleBinding everywhere, and picks up new bindings within a second', async () => {
    await create(s, `${rbac}/namespaces/default/roles`, {
      metadata: { name: 'pod-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
    });
    await create(s, `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: 'jane-reads-pods' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
    });
    const waited = await eventually(
      async () => (await call(s, '/api/v1/namespaces/default/pods', { token: 'jane-token' })).status === 200,
    );
    expect(waited).toBeLessThan(1000);
    process.stdout.write(`RBAC cache picked up a new RoleBinding after ${waited} ms\n`);
    expect((await call(s, '/api/v1/namespaces/orch-system/pods', { token: 'jane-token' })).status).toBe(403);
    expect((await call(s, '/api/v1/pods', { token: 'jane-token' })).status).toBe(403);
    const write = await call(s, '/api/v1/namespaces/default/pods/p1', {
      method: 'DELETE',
      token: 'jane-token',
    });
    expect(write.body.message).toBe(
      'pods "p1" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "default"',
    );

    await create(s, `${rbac}/clusterroles`, {
      metadata: { name: 'node-viewer' },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }],
    });
    await create(s, `${rbac}/clusterrolebindings`, {
      metadata: { name: 'ops-view-nodes' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-viewer' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' }],
    });
    await eventually(async () => (await call(s, '/api/v1/nodes', { token: 'bob-token' })).status === 200);
    expect((await call(s, '/api/v1/nodes', { token: 'jane-token' })).status).toBe(403);
  });

  it('forgets decisions when RBAC objects change: a removed binding or a changed role takes access away', async () => {
    await create(s, `${rbac}/namespaces/default/roles`, {
      metadata: { name: 'secret-reader' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
    });
    await create(s, `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: 'sam-reads-secrets' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'secret-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'sam' }],
    });
    const list = () => call(s, '/api/v1/namespaces/default/secrets', { token: 'sam-token' });
    await eventually(async () => (await list()).status === 200);
    expect((await list()).status).toBe(200);
    // the role loses the list verb: the allowed decision is not reused
    const role = await call(s, `${rbac}/namespaces/default/roles/secret-reader`, {
      method: 'PUT',
      token: admin,
      body: {
        metadata: { name: 'secret-reader' },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      },
    });
    expect(role.status).toBe(200);
    await eventually(async () => (await list()).status === 403);
    expect((await call(s, '/api/v1/namespaces/default/secrets/x', { token: 'sam-token' })).status).toBe(404);
    const removed = await call(s, `${rbac}/namespaces/default/rolebindings/sam-reads-secrets`, {
      method: 'DELETE',
      token: admin,
    });
    expect(removed.status).toBe(200);
    await eventually(
      async () =>
        (await call(s, '/api/v1/namespaces/default/secrets/x', { token: 'sam-token' })).status === 403,
    );
  });

  it('restricts by resourceNames and matches subresources, */subresource and * resources', async () => {
    await create(s, `${rbac}/namespaces/default/roles`, {
      metadata: { name: 'narrow' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['allowed'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
        { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['get'] },
        { apiGroups: ['batch'], resources: ['*'], verbs: ['list'] },
      ],
    });
    await create(s, `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: 'sam-narrow' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'narrow' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'sam' }],
    });
    const sam = { token: 'sam-token' };
    await eventually(
      async () => (await call(s, '/api/v1/namespaces/default/configmaps/allowed', sam)).status !== 403,
    );
    const other = await call(s, '/api/v1/namespaces/default/configmaps/other', sam);
    expect(other.body.message).toBe(
      'configmaps "other" is forbidden: User "sam" cannot get resource "configmaps" in API group "" in the namespace "default"',
    );
    expect((await call(s, '/api/v1/namespaces/default/configmaps', sam)).status).toBe(403);
    expect((await call(s, '/api/v1/namespaces/default/pods/p/log', sam)).status).not.toBe(403);
    const pod = await call(s, '/api/v1/namespaces/default/pods/p', sam);
    expect(pod.status).toBe(403);
    expect((await call(s, '/apis/apps/v1/namespaces/default/deployments/d/scale', sam)).status).not.toBe(403);
    const status = await call(s, '/apis/apps/v1/namespaces/default/deployments/d/status', sam);
    expect(status.body.message).toBe(
      'deployments.apps "d" is forbidden: User "sam" cannot get resource "deployments/status" in API group "apps" in the namespace "default"',
    );
    expect((await call(s, '/apis/batch/v1/namespaces/default/jobs', sam)).status).toBe(200);
    expect((await call(s, '/apis/batch/v1/namespaces/default/cronjobs', sam)).status).toBe(200);
  });

  it('evaluates aggregated cluster roles as the union of the roles they select', async () => {
    await create(s, `${rbac}/clusterroles`, {
      metadata: { name: 'monitoring' },
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }],
      },
      rules: [],
    });
    await create(s, `${rbac}/clusterrolebindings`, {
      metadata: { name: 'sam-monitoring' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'monitoring' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'sam' }],
    });
    expect((await call(s, '/api/v1/endpoints', { token: 'sam-token' })).status).toBe(403);
    await create(s, `${rbac}/clusterroles`, {
      metadata: { name: 'monitoring-endpoints', labels: { 'example.com/aggregate-to-monitoring': 'true' } },
      rules: [{ apiGroups: [''], resources: ['endpoints'], verbs: ['list'] }],
    });
    await eventually(async () => (await call(s, '/api/v1/endpoints', { token: 'sam-token' })).status === 200);
  });

  it('names a missing role in the reason', async () => {
    await create(s, `${rbac}/clusterrolebindings`, {
      metadata: { name: 'dangling' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'does-not-exist' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
    });
    await eventually(async () => {
      const r = await call(s, '/api/v1/secrets', { token: 'jane-token' });
      return (
        r.body.message ===
        'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "does-not-exist" not found'
      );
    });
  });

  it('grants service accounts through ServiceAccount subjects', async () => {
    const { authorizer } = s.access;
    await create(s, `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: 'builder-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
    });
    const sa = {
      username: 'system:serviceaccount:default:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default'],
    };
    const attrs = {
      user: sa,
      verb: 'list',
      isResourceRequest: true,
      path: '',
      namespace: 'default',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
      subresource: '',
      name: '',
    };
    await eventually(async () => (await authorizer.authorize(attrs)).decision === 'Allow');
    expect(await authorizer.authorize(attrs)).toEqual({
      decision: 'Allow',
      reason:
        'RBAC: allowed by RoleBinding "builder-view/default" of ClusterRole "view" to ServiceAccount "builder/default"',
    });
    expect((await authorizer.authorize({ ...attrs, verb: 'create' })).decision).toBe('NoOpinion');
    expect((await authorizer.authorize({ ...attrs, namespace: 'orch-system' })).decision).toBe('NoOpinion');
  });

  it('keeps the bootstrap policy idempotent and restores missing rules', async () => {
    const stores = rbacStores(s.server);
    const scope = { namespace: '', apiVersion: 'rbac.authorization.k8s.io/v1', dryRun: false };
    const before = await stores.clusterRoles.count();
    await ensureBootstrapPolicy(stores);
    expect(await stores.clusterRoles.count()).toBe(before);
    const role = await stores.clusterRoles.get(scope, 'system:orch-scheduler');
    expect(role.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    expect(role.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    const rv = role.metadata.resourceVersion;
    await stores.clusterRoles.update(scope, 'system:orch-scheduler', (cur) => ({ ...cur!, rules: [] }), {
      fieldValidation: 'Ignore',
      warnings: [],
    });
    await ensureBootstrapPolicy(stores);
    const restored = await stores.clusterRoles.get(scope, 'system:orch-scheduler');
    expect(restored.rules).toEqual(role.rules);
    expect(restored.metadata.resourceVersion).not.toBe(rv);
    const binding = await stores.clusterRoleBindings.get(scope, 'system:orch-scheduler');
    expect(binding.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:orch-scheduler' },
    ]);
  });

  it('gives the scheduler what it needs and nothing it does not', async () => {
    const user = { username: 'system:orch-scheduler', groups: ['system:authenticated'] };
    const ask = async (
      verb: string,
      apiGroup: string,
      resource: string,
      subresource = '',
      namespace = 'default',
    ) =>
      (
        await s.access.authorizer.authorize({
          user,
          verb,
          isResourceRequest: true,
          path: '',
          namespace,
          apiGroup,
          apiVersion: 'v1',
          resource,
          subresource,
          name: 'x',
        })
      ).decision;
    expect(await ask('create', '', 'pods', 'binding')).toBe('Allow');
    expect(await ask('patch', '', 'pods', 'status')).toBe('Allow');
    expect(await ask('watch', '', 'nodes', '', '')).toBe('Allow');
    expect(await ask('create', 'events.k8s.io', 'events')).toBe('Allow');
    expect(await ask('update', 'coordination.k8s.io', 'leases', '', 'orch-system')).toBe('Allow');
    expect(await ask('create', 'authorization.k8s.io', 'subjectaccessreviews', '', '')).toBe('Allow');
    expect(await ask('list', 'storage.k8s.io', 'csinodes', '', '')).toBe('Allow');
    // volume binding (system:volume-scheduler): a volume's claimRef, a claim's selected node
    expect(await ask('update', '', 'persistentvolumes', '', '')).toBe('Allow');
    expect(await ask('patch', '', 'persistentvolumeclaims')).toBe('Allow');
    expect(await ask('update', '', 'persistentvolumeclaims')).toBe('Allow');
    expect(await ask('delete', '', 'persistentvolumes', '', '')).toBe('NoOpinion');
    expect(await ask('create', '', 'pods')).toBe('NoOpinion');
    expect(await ask('get', '', 'secrets')).toBe('NoOpinion');
  });
});
