import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterRoleBindingKind, ClusterRoleKind } from '@orch/api';
import { freePort } from '@orch/apiserver';
import { buildConfigFromFlags, Clientset } from '@orch/client';
import {
  authenticationFlags,
  authorizationFlags,
  runDaemon,
  secureServingFlags,
  DeferredDelegatedAuth,
  type DaemonSpec,
} from '@orch/component-base';
// The secured test server (RBAC, token file, reviews) of the apiserver's access-control tests.
import {
  issueTestCertificate,
  startSecuredServer,
  type SecuredServer,
  type TestCertificate,
} from '@orch/apiserver';

let api: SecuredServer;
let dir: string;
let ca: TestCertificate;

beforeAll(async () => {
  ca = issueTestCertificate({ commonName: 'e2e-client-ca', ca: true });
  api = await startSecuredServer({
    authorizationMode: ['RBAC'],
    clientCA: ca.cert,
    tokenFile: 'alice-token,alice,alice-uid\nbob-token,bob,bob-uid\n',
    kubeconfigUsers: [{ name: 'bob', token: 'bob-token' }],
  });
  dir = mkdtempSync(join(tmpdir(), 'orch-delegated-'));
  writeFileSync(join(dir, 'ca.crt'), ca.cert);
  writeFileSync(
    join(dir, 'bob.kubeconfig'),
    readFileSync(api.kubeconfig, 'utf8').replace('current-context: orch', 'current-context: bob'),
  );
  const cs = Clientset.forConfig(buildConfigFromFlags({ kubeconfig: api.kubeconfig }).config);
  await cs.for(ClusterRoleKind).create({
    metadata: { name: 'metrics-reader' },
    rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
  });
  await cs.for(ClusterRoleBindingKind).create({
    metadata: { name: 'metrics-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
    subjects: [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'metrics-readers' },
    ],
  });
  cs.rest.close();
}, 60_000);

afterAll(async () => {
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Daemon {
  port: number;
  started: Promise<void>;
  code: Promise<number>;
  stderr: () => string;
  stop(): Promise<number>;
}

/** A daemon built on runDaemon whose secure server uses the delegated hooks. */
async function startDaemon(args: string[]): Promise<Daemon> {
  const port = await freePort();
  const auth = new DeferredDelegatedAuth();
  let started!: () => void;
  let failed!: (err: unknown) => void;
  const startedP = new Promise<void>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  const spec: DaemonSpec<Record<string, unknown>> = {
    name: 'orch-test-daemon',
    flagSets: [
      { name: 'Secure serving', flags: secureServingFlags(0) },
      { name: 'Authentication', flags: authenticationFlags(false) },
      { name: 'Authorization', flags: authorizationFlags() },
    ],
    authenticate: auth.authenticate,
    authorize: auth.authorize,
    run: async (ctx) => {
      try {
        await auth.init(ctx.flags, ctx.logger);
      } catch (err) {
        failed(err);
        throw err;
      }
      started();
      return { stop: () => auth.close() };
    },
  };
  let err = '';
  const signals = new EventEmitter();
  const code = runDaemon(spec, {
    argv: [`--secure-port=${port}`, '--bind-address=127.0.0.1', `--cert-dir=${dir}`, ...args],
    stdout: { write: () => true },
    stderr: { write: (t: string) => (err += t) },
    exit: () => undefined,
    signals,
  });
  return {
    port,
    started: startedP,
    code,
    stderr: () => err,
    stop: async () => {
      signals.emit('SIGTERM');
      return code;
    },
  };
}

function get(
  port: number,
  path: string,
  opts: { token?: string; cert?: TestCertificate; headers?: Record<string, string | string[]> } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path,
        rejectUnauthorized: false,
        agent: false,
        headers: { ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
        ...(opts.cert ? { cert: opts.cert.cert, key: opts.cert.key } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Review requests that reached the apiserver so far, by resource. */
async function reviews(): Promise<{ tokenreviews: number; subjectaccessreviews: number }> {
  const metric = await api.server.metrics.requests.get();
  const count = (resource: string): number =>
    metric.values
      .filter(
        (v) =>
          v.labels.resource === resource &&
          (v.labels.verb === 'POST' || v.labels.verb === 'CREATE' || v.labels.verb === 'create'),
      )
      .reduce((n, v) => n + v.value, 0);
  return { tokenreviews: count('tokenreviews'), subjectaccessreviews: count('subjectaccessreviews') };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('delegated authentication and authorization of a daemon', () => {
  it('answers 401 without credentials, 403 when RBAC denies, 200 when it allows; /healthz anonymously', async () => {
    const d = await startDaemon([
      `--authentication-kubeconfig=${api.kubeconfig}`,
      `--authorization-kubeconfig=${api.kubeconfig}`,
      `--client-ca-file=${join(dir, 'ca.crt')}`,
      '--authentication-token-webhook-cache-ttl=1s',
      '--authorization-webhook-cache-authorized-ttl=1s',
      '--authorization-webhook-cache-unauthorized-ttl=1s',
    ]);
    try {
      await d.started;
      expect(await get(d.port, '/healthz')).toBe(200);
      expect(await get(d.port, '/metrics')).toBe(401);
      expect(await get(d.port, '/metrics', { token: 'nobody-token' })).toBe(401);
      expect(await get(d.port, '/metrics', { token: 'bob-token' })).toBe(403);
      expect(await get(d.port, '/metrics', { token: 'alice-token' })).toBe(200);
      // Client certificates of the client CA: the group of the organization is allowed, a bare user not.
      const carol = issueTestCertificate({ commonName: 'carol', organizations: ['metrics-readers'] }, ca);
      const dave = issueTestCertificate({ commonName: 'dave' }, ca);
      const stranger = issueTestCertificate(
        { commonName: 'alice' },
        issueTestCertificate({ commonName: 'other-ca', ca: true }),
      );
      expect(await get(d.port, '/metrics', { cert: carol })).toBe(200);
      expect(await get(d.port, '/metrics', { cert: dave })).toBe(403);
      expect(await get(d.port, '/metrics', { cert: stranger })).toBe(401);
      // The admin is in system:masters: allowed without a review.
      expect(await get(d.port, '/metrics', { token: 'admin-token' })).toBe(200);
    } finally {
      expect(await d.stop()).toBe(0);
    }
  });

  it('caches token reviews and access reviews for their TTLs', async () => {
    const d = await startDaemon([
      `--authentication-kubeconfig=${api.kubeconfig}`,
      `--authorization-kubeconfig=${api.kubeconfig}`,
      '--authentication-skip-lookup',
      '--authentication-token-webhook-cache-ttl=1500ms',
      '--authorization-webhook-cache-authorized-ttl=1500ms',
      '--authorization-webhook-cache-unauthorized-ttl=400ms',
    ]);
    try {
      await d.started;
      const before = await reviews();
      for (let i = 0; i < 3; i++) expect(await get(d.port, '/metrics', { token: 'alice-token' })).toBe(200);
      for (let i = 0; i < 3; i++) expect(await get(d.port, '/metrics', { token: 'bob-token' })).toBe(403);
      const cached = await reviews();
      expect(cached.tokenreviews - before.tokenreviews).toBe(2);
      expect(cached.subjectaccessreviews - before.subjectaccessreviews).toBe(2);
      // The denial expires first: bob is reviewed again, alice still comes from the caches.
      await sleep(500);
      expect(await get(d.port, '/metrics', { token: 'bob-token' })).toBe(403);
      expect(await get(d.port, '/metrics', { token: 'alice-token' })).toBe(200);
      const partly = await reviews();
      expect(partly.tokenreviews - before.tokenreviews).toBe(2);
      expect(partly.subjectaccessreviews - before.subjectaccessreviews).toBe(3);
      await sleep(1100);
      expect(await get(d.port, '/metrics', { token: 'alice-token' })).toBe(200);
      const expired = await reviews();
      expect(expired.tokenreviews - before.tokenreviews).toBe(3);
      expect(expired.subjectaccessreviews - before.subjectaccessreviews).toBe(4);
    } finally {
      await d.stop();
    }
  });

  it('fails when the authentication ConfigMap cannot be read, unless told to tolerate it', async () => {
    const bob = join(dir, 'bob.kubeconfig');
    const strict = await startDaemon([`--authentication-kubeconfig=${bob}`]);
    await expect(strict.started).rejects.toThrow(
      /unable to load configmap based request-header-client-ca-file/,
    );
    expect(await strict.code).toBe(1);

    const tolerant = await startDaemon([
      `--authentication-kubeconfig=${bob}`,
      '--authentication-tolerate-lookup-failure',
    ]);
    try {
      await tolerant.started;
      expect(tolerant.stderr()).toContain('continuing without authentication configuration');
      expect(await get(tolerant.port, '/healthz')).toBe(200);
      // bob may not create token reviews either: a review that fails refuses the request.
      expect(await get(tolerant.port, '/metrics', { token: 'alice-token' })).toBe(401);
    } finally {
      await tolerant.stop();
    }
  });

  it('without --authentication-kubeconfig treats tokens as anonymous', async () => {
    const d = await startDaemon([`--authorization-kubeconfig=${api.kubeconfig}`]);
    const noAuthz = await startDaemon([`--authentication-kubeconfig=${api.kubeconfig}`]);
    try {
      await d.started;
      await noAuthz.started;
      expect(await get(d.port, '/metrics', { token: 'alice-token' })).toBe(403);
      expect(await get(d.port, '/metrics')).toBe(401);
      // Without --authorization-kubeconfig everything outside the always-allow paths is forbidden.
      expect(await get(noAuthz.port, '/metrics', { token: 'alice-token' })).toBe(403);
      expect(await get(noAuthz.port, '/healthz', { token: 'alice-token' })).toBe(200);
    } finally {
      await d.stop();
      await noAuthz.stop();
    }
  });

  it('trusts a front proxy for the user in the request headers, with settings looked up from the ConfigMap', async () => {
    const front = issueTestCertificate({ commonName: 'front-proxy-ca', ca: true });
    const proxy = issueTestCertificate({ commonName: 'front-proxy-client' }, front);
    const impostor = issueTestCertificate({ commonName: 'someone-else' }, front);
    const secured = await startSecuredServer({
      authorizationMode: ['RBAC'],
      clientCA: ca.cert,
      tokenFile: 'alice-token,alice,alice-uid\n',
      requestHeader: {
        requestHeaderCA: front.cert,
        requestHeaderAllowedNames: ['front-proxy-client'],
        requestHeaderUsernameHeaders: ['X-Remote-User'],
        requestHeaderGroupHeaders: ['X-Remote-Group'],
        requestHeaderExtraHeaderPrefixes: ['X-Remote-Extra-'],
      },
    });
    const cs = Clientset.forConfig(buildConfigFromFlags({ kubeconfig: secured.kubeconfig }).config);
    await cs.for(ClusterRoleKind).create({
      metadata: { name: 'metrics-reader' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    });
    await cs.for(ClusterRoleBindingKind).create({
      metadata: { name: 'metrics-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'proxied-readers' }],
    });
    cs.rest.close();
    // --client-ca-file makes the server ask for client certificates; the request-header settings
    // come from configmap/extension-apiserver-authentication.
    const d = await startDaemon([
      `--authentication-kubeconfig=${secured.kubeconfig}`,
      `--authorization-kubeconfig=${secured.kubeconfig}`,
      `--client-ca-file=${join(dir, 'ca.crt')}`,
    ]);
    try {
      await d.started;
      const as = (user: string, groups: string[]): Record<string, string | string[]> => ({
        'X-Remote-User': user,
        'X-Remote-Group': groups,
        'X-Remote-Extra-Scopes': 'a',
      });
      expect(await get(d.port, '/metrics', { cert: proxy, headers: as('erin', ['proxied-readers']) })).toBe(
        200,
      );
      expect(await get(d.port, '/metrics', { cert: proxy, headers: as('erin', ['x', 'y']) })).toBe(403);
      expect(
        await get(d.port, '/metrics', { cert: impostor, headers: as('erin', ['proxied-readers']) }),
      ).toBe(401);
      // Headers without a front-proxy certificate are not trusted.
      expect(await get(d.port, '/metrics', { headers: as('erin', ['proxied-readers']) })).toBe(401);
    } finally {
      await d.stop();
      await secured.close();
    }
  });
});
