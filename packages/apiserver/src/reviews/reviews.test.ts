import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSigningKey } from '@orch/component-base';
import { call, issueTestCertificate, startSecuredServer, type SecuredServer } from './access-test-support';
import { runKubectl } from '../testing/run-kubectl';

const issuer = 'https://orch.test';
const admin = { token: 'admin-token' };
const jane = { token: 'jane-token' };
const authz = '/apis/authorization.k8s.io/v1';
const ca = issueTestCertificate({ commonName: 'orch-client-ca', ca: true });
const alice = issueTestCertificate({ commonName: 'alice', organizations: ['readers'] }, ca);
const mallory = issueTestCertificate(
  { commonName: 'mallory', organizations: ['system:masters'] },
  issueTestCertificate({ commonName: 'rogue', ca: true }),
);
const signing = createSigningKey();

describe('review APIs', () => {
  let s: SecuredServer;
  let keyDir: string;

  beforeAll(async () => {
    keyDir = mkdtempSync(join(tmpdir(), 'orch-sa-keys-'));
    writeFileSync(join(keyDir, 'sa.pub'), signing.publicKey);
    s = await startSecuredServer({
      authorizationMode: 'RBAC,Node',
      clientCA: ca.cert,
      tokenFile: ['jane-token,jane,jane-uid,"dev"', 'sched-token,system:orch-scheduler,sched-uid'].join('\n'),
      serviceAccountKeyFiles: [join(keyDir, 'sa.pub')],
      serviceAccountIssuers: [issuer],
      serviceAccountSigningKey: signing.privateKey,
      requestHeader: { requestHeaderCA: ca.cert, requestHeaderAllowedNames: ['front-proxy-client'] },
      kubeconfigUsers: [
        { name: 'jane', token: 'jane-token' },
        { name: 'alice', clientCertificate: alice },
        { name: 'mallory', clientCertificate: mallory },
      ],
    });
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const created = await Promise.all([
      call(s, `${rbac}/namespaces/default/rolebindings`, {
        ...admin,
        body: {
          metadata: { name: 'jane-edit' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
        },
      }),
      call(s, `${rbac}/clusterrolebindings`, {
        ...admin,
        body: {
          metadata: { name: 'readers-view' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
          subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'readers' }],
        },
      }),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201]);
    // the policy cache follows the store through a watch
    for (let i = 0; i < 100; i++) {
      const r = await call(s, '/api/v1/namespaces/default/pods', jane);
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 20));
    }
  });
  afterAll(async () => {
    await s.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  describe('TokenReview', () => {
    const path = '/apis/authentication.k8s.io/v1/tokenreviews';

    it('reports the user of a valid token and echoes the review with 201', async () => {
      const r = await call(s, path, {
        ...admin,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'jane-token' } },
      });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        metadata: {},
        spec: { token: 'jane-token' },
        status: {
          authenticated: true,
          user: { username: 'jane', uid: 'jane-uid', groups: ['dev', 'system:authenticated'] },
          audiences: [issuer],
        },
      });
    });

    it('reports an invalid token as not authenticated with the error', async () => {
      const r = await call(s, path, { ...admin, body: { spec: { token: 'bogus' } } });
      expect(r.status).toBe(201);
      expect(r.body.status).toEqual({ authenticated: false, user: {}, error: 'invalid bearer token' });
    });

    it('requires a token', async () => {
      const r = await call(s, path, { ...admin, body: { spec: {} } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        reason: 'BadRequest',
        message: 'token is required for TokenReview in authentication',
      });
    });

    it('is forbidden to users without tokenreviews create', async () => {
      const r = await call(s, path, { ...jane, body: { spec: { token: 'x' } } });
      expect(r.body.message).toBe(
        'tokenreviews.authentication.k8s.io is forbidden: User "jane" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope',
      );
    });
  });

  describe('SubjectAccessReview', () => {
    const path = `${authz}/subjectaccessreviews`;

    it('answers for the user and groups of the spec', async () => {
      const allowed = await call(s, path, {
        ...admin,
        body: {
          spec: {
            user: 'jane',
            resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' },
          },
        },
      });
      expect(allowed.status).toBe(201);
      expect(allowed.body).toMatchObject({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        status: {
          allowed: true,
          reason: 'RBAC: allowed by RoleBinding "jane-edit/default" of ClusterRole "edit" to User "jane"',
        },
      });
      const denied = await call(s, path, {
        ...admin,
        body: {
          spec: {
            user: 'jane',
            resourceAttributes: { namespace: 'orch-system', verb: 'create', resource: 'pods' },
          },
        },
      });
      expect(denied.body.status).toEqual({ allowed: false });
      const group = await call(s, path, {
        ...admin,
        body: {
          spec: {
            groups: ['system:unauthenticated'],
            nonResourceAttributes: { path: '/healthz', verb: 'get' },
          },
        },
      });
      expect(group.body.status.allowed).toBe(true);
    });

    it('validates the spec as Kubernetes does', async () => {
      const noUser = await call(s, path, {
        ...admin,
        body: { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
      });
      expect(noUser.status).toBe(422);
      expect(noUser.body).toMatchObject({
        reason: 'Invalid',
        message:
          'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
        details: {
          kind: 'SubjectAccessReview',
          group: 'authorization.k8s.io',
          causes: [{ reason: 'FieldValueInvalid', field: 'spec.user' }],
        },
      });
      const neither = await call(s, path, { ...admin, body: { spec: { user: 'jane' } } });
      expect(neither.body.message).toBe(
        'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      );
      const both = await call(s, path, {
        ...admin,
        body: { spec: { user: 'jane', resourceAttributes: {}, nonResourceAttributes: {} } },
      });
      expect(both.status).toBe(422);
      expect(both.body.message).toContain(
        'spec.nonResourceAttributes: Invalid value: {}: cannot be specified in combination with resourceAttributes',
      );
    });
  });

  describe('SelfSubjectAccessReview', () => {
    it('answers for the requesting user', async () => {
      const path = `${authz}/selfsubjectaccessreviews`;
      const yes = await call(s, path, {
        ...jane,
        body: {
          spec: {
            resourceAttributes: {
              namespace: 'default',
              verb: 'delete',
              group: 'apps',
              resource: 'deployments',
            },
          },
        },
      });
      expect(yes.status).toBe(201);
      expect(yes.body.status.allowed).toBe(true);
      const no = await call(s, path, {
        ...jane,
        body: { spec: { resourceAttributes: { verb: 'list', resource: 'nodes' } } },
      });
      expect(no.body.status).toEqual({ allowed: false });
      const invalid = await call(s, path, { ...jane, body: { spec: {} } });
      expect(invalid.body.message).toBe(
        'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      );
    });
  });

  describe('LocalSubjectAccessReview', () => {
    const path = `${authz}/namespaces/default/localsubjectaccessreviews`;

    it('answers within the namespace of the path', async () => {
      const r = await call(s, path, {
        ...admin,
        body: {
          spec: {
            user: 'jane',
            resourceAttributes: { namespace: 'default', verb: 'get', resource: 'secrets' },
          },
        },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        kind: 'LocalSubjectAccessReview',
        metadata: { namespace: 'default' },
        status: { allowed: true },
      });
    });

    it('requires the attributes to name the namespace of the path', async () => {
      const other = await call(s, path, {
        ...admin,
        body: {
          spec: {
            user: 'jane',
            resourceAttributes: { namespace: 'other', verb: 'get', resource: 'secrets' },
          },
        },
      });
      expect(other.status).toBe(422);
      expect(other.body.message).toBe(
        'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
      );
      const meta = await call(s, path, {
        ...admin,
        body: {
          metadata: { namespace: 'other' },
          spec: { user: 'jane', resourceAttributes: { namespace: 'other' } },
        },
      });
      expect(meta.status).toBe(400);
      expect(meta.body.message).toBe(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
      const nonResource = await call(s, path, {
        ...admin,
        body: { spec: { user: 'jane', nonResourceAttributes: { path: '/x', verb: 'get' } } },
      });
      expect(nonResource.body.message).toContain(
        'spec.nonResourceAttributes: Invalid value: {"path":"/x","verb":"get"}: disallowed on this kind of request',
      );
    });
  });

  describe('SelfSubjectRulesReview', () => {
    const path = `${authz}/selfsubjectrulesreviews`;

    it('lists the rules of the requesting user in the namespace', async () => {
      const r = await call(s, path, { ...jane, body: { spec: { namespace: 'default' } } });
      expect(r.status).toBe(201);
      const { resourceRules, nonResourceRules, incomplete } = r.body.status;
      expect(incomplete).toBe(true); // the Node mode cannot list rules
      expect(resourceRules).toContainEqual({
        verbs: ['create'],
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      });
      expect(resourceRules).toContainEqual({
        verbs: ['create'],
        apiGroups: [''],
        resources: ['serviceaccounts/token'],
      });
      expect(nonResourceRules).toContainEqual({
        verbs: ['get'],
        nonResourceURLs: expect.arrayContaining(['/api', '/apis/*', '/version']),
      });
      const elsewhere = await call(s, path, { ...jane, body: { spec: { namespace: 'orch-system' } } });
      expect(elsewhere.body.status.resourceRules).not.toContainEqual({
        verbs: ['create'],
        apiGroups: [''],
        resources: ['serviceaccounts/token'],
      });
    });

    it('requires a namespace', async () => {
      const r = await call(s, path, { ...jane, body: { spec: {} } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('no namespace on request');
    });
  });

  describe('serviceaccounts/token', () => {
    it('issues a token that authenticates as the service account', async () => {
      const sa = await call(s, '/api/v1/namespaces/default/serviceaccounts', {
        ...admin,
        body: { metadata: { name: 'robot' } },
      });
      expect(sa.status).toBe(201);
      const r = await call(s, '/api/v1/namespaces/default/serviceaccounts/robot/token', {
        ...jane,
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { audiences: [], expirationSeconds: 1200 },
        },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        metadata: { name: 'robot', namespace: 'default' },
        spec: { audiences: [issuer], expirationSeconds: 1200 },
      });
      const expires = Date.parse(r.body.status.expirationTimestamp) - Date.now();
      expect(expires).toBeGreaterThan(1100_000);
      expect(expires).toBeLessThanOrEqual(1200_000);
      const review = await call(s, '/apis/authentication.k8s.io/v1/tokenreviews', {
        ...admin,
        body: { spec: { token: r.body.status.token } },
      });
      expect(review.body.status).toMatchObject({
        authenticated: true,
        user: { username: 'system:serviceaccount:default:robot', uid: sa.body.metadata.uid },
        audiences: [issuer],
      });
      const asRobot = await call(s, '/api/v1/namespaces/default/pods', { token: r.body.status.token });
      expect(asRobot.body.message).toBe(
        'pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"',
      );
    });

    it('takes null fields as absent, as kubectl create token sends them: an hour, the API audiences', async () => {
      const r = await call(s, '/api/v1/namespaces/default/serviceaccounts/robot/token', {
        ...admin,
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          metadata: { creationTimestamp: null },
          spec: { audiences: null, expirationSeconds: null, boundObjectRef: null },
          status: { token: '', expirationTimestamp: null },
        },
      });
      expect(r.status).toBe(201);
      expect(r.body.spec).toEqual({ audiences: [issuer], expirationSeconds: 3600 });
      const expires = Date.parse(r.body.status.expirationTimestamp) - Date.now();
      expect(expires).toBeGreaterThan(3500_000);
      expect(expires).toBeLessThanOrEqual(3600_000);
    });

    it('validates the request and needs the service account', async () => {
      const short = await call(s, '/api/v1/namespaces/default/serviceaccounts/robot/token', {
        ...admin,
        body: { spec: { audiences: ['a'], expirationSeconds: 599 } },
      });
      expect(short.status).toBe(422);
      expect(short.body.message).toBe(
        'TokenRequest.authentication.k8s.io "robot" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      );
      const missing = await call(s, '/api/v1/namespaces/default/serviceaccounts/ghost/token', {
        ...admin,
        body: { spec: { audiences: ['a'] } },
      });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('serviceaccounts "ghost" not found');
    });
  });

  describe('extension-apiserver-authentication', () => {
    const path = '/api/v1/namespaces/orch-system/configmaps/extension-apiserver-authentication';

    it('publishes the client CA and request-header settings readable by the scheduler only', async () => {
      const r = await call(s, path, { token: 'sched-token' });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({
        'client-ca-file': ca.cert,
        'requestheader-client-ca-file': ca.cert,
        'requestheader-allowed-names': '["front-proxy-client"]',
        'requestheader-username-headers': '["X-Remote-User"]',
        'requestheader-group-headers': '["X-Remote-Group"]',
        'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      });
      expect((await call(s, path, jane)).status).toBe(403);
      const binding = await call(
        s,
        '/apis/rbac.authorization.k8s.io/v1/namespaces/orch-system/rolebindings/system::extension-apiserver-authentication-reader',
        admin,
      );
      expect(binding.body).toMatchObject({
        roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
        subjects: [
          { kind: 'User', name: 'system:orch-controller-manager' },
          { kind: 'User', name: 'system:orch-scheduler' },
        ],
      });
      const role = await call(
        s,
        '/apis/rbac.authorization.k8s.io/v1/namespaces/orch-system/roles/extension-apiserver-authentication-reader',
        admin,
      );
      expect(role.body.rules).toEqual([
        {
          verbs: ['get', 'list', 'watch'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['extension-apiserver-authentication'],
        },
      ]);
    });
  });

  describe('SelfSubjectReview', () => {
    const path = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

    it('answers 201 with the attributes the request was authenticated with, whatever the body held', async () => {
      const r = await call(s, path, {
        ...jane,
        body: { metadata: { name: 'ignored' }, status: { userInfo: { username: 'admin' } } },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        status: { userInfo: { username: 'jane', uid: 'jane-uid', groups: ['dev', 'system:authenticated'] } },
      });
      expect(r.body.metadata).toEqual({
        creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:]{8}Z$/),
      });
    });

    it('is open to every authenticated user (system:basic-user) but not to anonymous', async () => {
      const anonymous = await call(s, path, { body: {} });
      expect(anonymous.status).toBe(403);
    });
  });

  describe('kubectl auth whoami', () => {
    it('prints the user and groups of a token user and of a client-certificate user', async () => {
      const whoami = (context: string) =>
        runKubectl(s.kubeconfig, '--context', context, 'auth', 'whoami', '-o', 'json').then(
          (r) => JSON.parse(r.out) as { status: { userInfo: object } },
        );
      expect((await whoami('jane')).status.userInfo).toEqual({
        username: 'jane',
        uid: 'jane-uid',
        groups: ['dev', 'system:authenticated'],
      });
      expect((await whoami('alice')).status.userInfo).toEqual({
        username: 'alice',
        groups: ['readers', 'system:authenticated'],
      });
    });
  });

  describe('kubectl auth can-i', () => {
    const kubectl = (...args: string[]) => runKubectl(s.kubeconfig, ...args);

    it('answers yes and no for token and client-certificate users', async () => {
      expect(
        await kubectl('--context', 'jane', 'auth', 'can-i', 'create', 'deployments', '-n', 'default'),
      ).toMatchObject({ code: 0, out: 'yes' });
      expect(
        await kubectl('--context', 'jane', 'auth', 'can-i', 'create', 'deployments', '-n', 'orch-system'),
      ).toMatchObject({ code: 1, out: 'no' });
      expect(await kubectl('--context', 'alice', 'auth', 'can-i', 'list', 'pods', '-A')).toMatchObject({
        code: 0,
        out: 'yes',
      });
      expect(
        await kubectl('--context', 'alice', 'auth', 'can-i', 'delete', 'pods/x', '-n', 'default'),
      ).toMatchObject({ code: 1, out: 'no' });
      expect(await kubectl('auth', 'can-i', '*', '*')).toMatchObject({ code: 0, out: 'yes' });
    });

    it('lists the rules with --list', async () => {
      const r = await kubectl('--context', 'jane', 'auth', 'can-i', '--list', '-n', 'default');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs/);
      expect(r.out).toMatch(
        /\ndeployments\.apps\s+\[\]\s+\[\]\s+\[create delete deletecollection patch update get list watch\]\n/,
      );
    });

    it('refuses a certificate the client CA did not sign, and is anonymous without credentials', async () => {
      const r = await kubectl('--context', 'mallory', 'auth', 'can-i', 'list', 'pods');
      expect(r.code).toBe(1);
      expect(r.err).toContain('error: You must be logged in to the server (Unauthorized)');
      const anonymous = await call(s, `${authz}/selfsubjectaccessreviews`, {
        body: { spec: { resourceAttributes: { verb: 'list', resource: 'pods' } } },
      });
      expect(anonymous.body.message).toBe(
        'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
      );
    });
  });
});
