import { call, startSecuredServer, type SecuredServer } from '../reviews/access-test-support';
import { AlwaysAllowAuthorizer } from '../authz/authorizer';
import { asksToImpersonate, impersonate, impersonationRequests } from './impersonation';
import { runKubectl } from '../testing/run-kubectl';

const admin = { token: 'admin-token' };
const jane = { token: 'jane-token' };
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const whoamiPath = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

describe('impersonation headers', () => {
  it('are recognized in any case among the raw headers', () => {
    expect(asksToImpersonate(['Host', 'x', 'Impersonate-User', 'bob'])).toBe(true);
    expect(asksToImpersonate(['host', 'x', 'impersonate-extra-scopes', 'a'])).toBe(true);
    expect(asksToImpersonate(['Host', 'x', 'Authorization', 'Bearer t', 'Impersonate', 'bob'])).toBe(false);
  });

  it('ask for the user (or service account), the groups, the extras and the uid in that order', () => {
    expect(
      impersonationRequests({
        'impersonate-uid': ['u-1'],
        'impersonate-extra-scopes': ['view', 'edit'],
        'impersonate-group': ['a', 'b'],
        'impersonate-user': ['system:serviceaccount:ns-1:robot'],
      }),
    ).toEqual([
      { resource: 'serviceaccounts', namespace: 'ns-1', name: 'robot' },
      { resource: 'groups', name: 'a' },
      { resource: 'groups', name: 'b' },
      { resource: 'userextras', name: 'view', extraKey: 'scopes' },
      { resource: 'userextras', name: 'edit', extraKey: 'scopes' },
      { resource: 'uids', name: 'u-1' },
    ]);
  });

  it('take a service account username that does not split into a valid namespace and name for a user', () => {
    for (const name of [
      'system:serviceaccount:ns',
      'system:serviceaccount:a:b:c',
      'system:serviceaccount:Bad_NS:robot',
      'system:serviceaccount:ns:',
    ]) {
      expect(impersonationRequests({ 'impersonate-user': [name] })).toEqual([{ resource: 'users', name }]);
    }
  });

  it('decode an extra key from its header name: lower case, percent-decoded when well formed', () => {
    expect(
      impersonationRequests({
        'impersonate-user': ['bob'],
        'impersonate-extra-example.com%2fscopes': ['a'],
        'impersonate-extra-bad%zz': ['b'],
      }).slice(1),
    ).toEqual([
      { resource: 'userextras', name: 'a', extraKey: 'example.com/scopes' },
      { resource: 'userextras', name: 'b', extraKey: 'bad%zz' },
    ]);
  });

  it('make the user Kubernetes makes of them', async () => {
    const requestor = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
    const as = (headers: Record<string, string[]>) =>
      impersonate(headers, requestor, new AlwaysAllowAuthorizer());
    expect(await as({})).toBe(requestor);
    expect(await as({ 'impersonate-user': ['bob'] })).toEqual({
      username: 'bob',
      groups: ['system:authenticated'],
    });
    expect(
      await as({ 'impersonate-user': ['bob'], 'impersonate-group': ['system:unauthenticated'] }),
    ).toEqual({
      username: 'bob',
      groups: ['system:unauthenticated'],
    });
    expect(await as({ 'impersonate-user': ['system:anonymous'] })).toEqual({
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
    expect(await as({ 'impersonate-user': ['system:anonymous'], 'impersonate-group': ['x'] })).toEqual({
      username: 'system:anonymous',
      groups: ['x', 'system:unauthenticated'],
    });
    expect(
      await as({ 'impersonate-user': ['system:serviceaccount:ns:robot'], 'impersonate-uid': ['u'] }),
    ).toEqual({
      username: 'system:serviceaccount:ns:robot',
      uid: 'u',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated'],
    });
  });

  it('refuse groups, extras or a uid without a user as a bad request', () => {
    for (const headers of [
      { 'impersonate-group': ['devs'] },
      { 'impersonate-uid': ['u-1'] },
      { 'impersonate-extra-scopes': ['view'] },
      { 'impersonate-user': [''], 'impersonate-group': ['devs'] },
    ]) {
      expect(() => impersonationRequests(headers)).toThrow(
        expect.objectContaining({ code: 400, status: expect.objectContaining({ reason: 'BadRequest' }) }),
      );
    }
    expect(impersonationRequests({})).toEqual([]);
  });
});

describe('impersonation through the apiserver', () => {
  let s: SecuredServer;

  beforeAll(async () => {
    s = await startSecuredServer({
      authorizationMode: 'RBAC',
      tokenFile: 'jane-token,jane,jane-uid,"dev"\n',
    });
    const created = await Promise.all([
      // jane may act as bob, in group devs, and as service accounts of namespace default
      call(s, `${rbac}/clusterroles`, {
        ...admin,
        body: {
          metadata: { name: 'impersonate-bob' },
          rules: [
            { apiGroups: [''], resources: ['users'], resourceNames: ['bob'], verbs: ['impersonate'] },
            { apiGroups: [''], resources: ['groups'], resourceNames: ['devs'], verbs: ['impersonate'] },
          ],
        },
      }),
      call(s, `${rbac}/clusterrolebindings`, {
        ...admin,
        body: {
          metadata: { name: 'jane-impersonates-bob' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-bob' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
        },
      }),
      call(s, `${rbac}/namespaces/default/roles`, {
        ...admin,
        body: {
          metadata: { name: 'impersonate-accounts' },
          rules: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }],
        },
      }),
      call(s, `${rbac}/namespaces/default/rolebindings`, {
        ...admin,
        body: {
          metadata: { name: 'jane-impersonates-accounts' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'impersonate-accounts' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
        },
      }),
      // bob may read namespace default
      call(s, `${rbac}/namespaces/default/rolebindings`, {
        ...admin,
        body: {
          metadata: { name: 'bob-view' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
        },
      }),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    // the policy cache follows the store through a watch
    for (let i = 0; i < 100; i++) {
      const r = await call(s, '/api/v1/namespaces/default/pods', {
        ...jane,
        headers: { 'Impersonate-User': 'bob' },
      });
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 20));
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it("acts with the impersonated user's permissions, not the requestor's", async () => {
    const asBob = { ...admin, headers: { 'Impersonate-User': 'bob' } };
    expect((await call(s, '/api/v1/namespaces/default/configmaps', asBob)).status).toBe(200);
    const nodes = await call(s, '/api/v1/nodes', asBob);
    expect(nodes.status).toBe(403);
    expect(nodes.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message:
        'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope',
    });
    const write = await call(s, '/api/v1/namespaces/default/configmaps', {
      ...asBob,
      body: { metadata: { name: 'by-bob' } },
    });
    expect(write.status).toBe(403);
    // the same request without the header is the admin's
    expect((await call(s, '/api/v1/nodes', admin)).status).toBe(200);
  });

  it('answers who the request acts as: groups and extras as asked, system:authenticated added', async () => {
    const r = await call(s, whoamiPath, {
      ...admin,
      body: {},
      headers: {
        'Impersonate-User': 'bob',
        'Impersonate-Group': ['devs', 'qa'],
        'Impersonate-Uid': 'bob-uid',
        'Impersonate-Extra-Example.com%2FScopes': ['view', 'edit'],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.status.userInfo).toEqual({
      username: 'bob',
      uid: 'bob-uid',
      groups: ['devs', 'qa', 'system:authenticated'],
      extra: { 'example.com/scopes': ['view', 'edit'] },
    });
  });

  it('gives a service account its groups unless groups are asked for, and anonymous system:unauthenticated', async () => {
    const whoami = async (headers: Record<string, string | string[]>) =>
      (await call(s, whoamiPath, { ...admin, body: {}, headers })).body.status.userInfo;
    expect(await whoami({ 'Impersonate-User': 'system:serviceaccount:default:robot' })).toEqual({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect(
      await whoami({ 'Impersonate-User': 'system:serviceaccount:default:robot', 'Impersonate-Group': 'x' }),
    ).toEqual({ username: 'system:serviceaccount:default:robot', groups: ['x', 'system:authenticated'] });
    expect(
      await whoami({ 'Impersonate-User': 'carol', 'Impersonate-Group': ['system:authenticated', 'qa'] }),
    ).toEqual({ username: 'carol', groups: ['system:authenticated', 'qa'] });
    // in system:unauthenticated, carol is not authenticated: not even asking who she is is allowed
    const unauthenticated = await call(s, whoamiPath, {
      ...admin,
      body: {},
      headers: { 'Impersonate-User': 'carol', 'Impersonate-Group': 'system:unauthenticated' },
    });
    expect(unauthenticated.status).toBe(403);
    expect(unauthenticated.body.message).toContain(
      'User "carol" cannot create resource "selfsubjectreviews"',
    );
    // anonymous may not ask who it is: the impersonated user is what is authorized
    const anonymous = await call(s, whoamiPath, {
      ...admin,
      body: {},
      headers: { 'Impersonate-User': 'system:anonymous' },
    });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.message).toContain(
      'User "system:anonymous" cannot create resource "selfsubjectreviews"',
    );
  });

  it('needs the impersonate verb on each user, group and service account, and names the first refused', async () => {
    const asJane = (headers: Record<string, string | string[]>) =>
      call(s, '/api/v1/namespaces/default/configmaps', { ...jane, headers });
    expect((await asJane({ 'Impersonate-User': 'bob' })).status).toBe(200);
    expect((await asJane({ 'Impersonate-User': 'bob', 'Impersonate-Group': 'devs' })).status).toBe(200);
    // allowed to impersonate the account, which itself may not list configmaps
    expect((await asJane({ 'Impersonate-User': 'system:serviceaccount:default:robot' })).body.message).toBe(
      'configmaps is forbidden: User "system:serviceaccount:default:robot" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
    const carol = await asJane({ 'Impersonate-User': 'carol' });
    expect(carol.status).toBe(403);
    expect(carol.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'users "carol" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'carol', kind: 'users' },
    });
    const group = await asJane({ 'Impersonate-User': 'bob', 'Impersonate-Group': ['devs', 'admins'] });
    expect(group.status).toBe(403);
    expect(group.body.message).toBe(
      'groups "admins" is forbidden: User "jane" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    const account = await asJane({ 'Impersonate-User': 'system:serviceaccount:orch-system:robot' });
    expect(account.body.message).toBe(
      'serviceaccounts "robot" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "orch-system"',
    );
    const extra = await asJane({ 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'view' });
    expect(extra.body.message).toBe(
      'userextras.authentication.k8s.io "view" is forbidden: User "jane" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
    const uid = await asJane({ 'Impersonate-User': 'bob', 'Impersonate-Uid': 'u-1' });
    expect(uid.body.message).toBe(
      'uids.authentication.k8s.io "u-1" is forbidden: User "jane" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('answers 400 for groups without a user', async () => {
    const r = await call(s, '/api/v1/namespaces/default/configmaps', {
      ...admin,
      headers: { 'Impersonate-Group': 'devs' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'requested group "devs" without impersonating a user',
    });
  });

  it('works for kubectl --as and --as-group', async () => {
    const kubectl = (...args: string[]) => runKubectl(s.kubeconfig, ...args);
    expect(await kubectl('auth', 'can-i', 'list', 'pods', '-n', 'default', '--as=bob')).toMatchObject({
      code: 0,
      out: 'yes',
    });
    expect(await kubectl('auth', 'can-i', 'delete', 'nodes', '--as=bob')).toMatchObject({
      code: 1,
      out: 'no',
    });
    const denied = await kubectl('get', 'nodes', '--as=bob');
    expect(denied.code).toBe(1);
    expect(denied.err).toContain(
      'Error from server (Forbidden): nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const whoami = await kubectl('auth', 'whoami', '--as=bob', '--as-group=devs', '-o', 'json');
    expect(JSON.parse(whoami.out).status.userInfo).toEqual({
      username: 'bob',
      groups: ['devs', 'system:authenticated'],
    });
  });
});
