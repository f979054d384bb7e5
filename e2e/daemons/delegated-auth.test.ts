import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  daemonBin,
  eventually,
  freePort,
  httpsRequest,
  startAPIServerProcess,
  startDaemon,
  type APIServerProcess,
  type DaemonProcess,
} from '@orch/apiserver';
import { loopbackDaemonArgs } from '@orch/component-base';

jest.setTimeout(90_000);

/**
 * orch-scheduler and orch-controller-manager serve /metrics to the users the apiserver vouches for, as
 * kube-scheduler and kube-controller-manager do: client certificates by the client CA they look up in
 * extension-apiserver-authentication, bearer tokens through a TokenReview, and access through a
 * SubjectAccessReview (--authentication-kubeconfig, --authorization-kubeconfig).
 */
describe.each([
  ['orch-scheduler', 'scheduler', 'scheduler', ['--port=0']],
  ['orch-controller-manager', 'controller-manager', 'controller-manager', []],
])('%s: delegated authentication and authorization', (bin, pkg, identity, extraArgs) => {
  let api: APIServerProcess;
  let daemon: DaemonProcess;
  let port: number;

  beforeAll(async () => {
    const tokens = join(tmpdir(), `orch-delegated-${process.pid}-${pkg}.csv`);
    writeFileSync(tokens, 'reader-token,metrics-reader,uid-1\nnobody-token,nobody,uid-2\n');
    api = await startAPIServerProcess({ args: [`--token-auth-file=${tokens}`] });
    const admin = { ca: api.pki.ca, cert: api.pki.admin.cert, key: api.pki.admin.key };
    const rbac = `${api.url}/apis/rbac.authorization.k8s.io/v1`;
    const create = async (resource: string, body: object) =>
      expect((await httpsRequest(`${rbac}/${resource}`, { ...admin, method: 'POST', body })).status).toBe(
        201,
      );
    await create('clusterroles', {
      metadata: { name: 'metrics-reader' },
      rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
    });
    await create('clusterrolebindings', {
      metadata: { name: 'metrics-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'metrics-reader' }],
    });
    port = await freePort();
    const kubeconfig = api.pki.kubeconfigs[identity]!;
    // no --client-ca-file: the client CA comes from extension-apiserver-authentication
    daemon = startDaemon(
      bin,
      daemonBin(pkg, bin),
      [
        ...loopbackDaemonArgs(kubeconfig, port, join(api.dataDir, 'pki', pkg)),
        // the scheduler's deprecated plain-HTTP port stays closed
        ...extraArgs,
      ],
      join(api.dataDir, 'logs'),
    );
    await eventually(async () => {
      if (daemon.child.exitCode !== null) throw new Error(`exited: ${readFileSync(daemon.log, 'utf8')}`);
      return (await get('/healthz')) === 200;
    }, `${bin} healthy`);
  });

  afterAll(async () => {
    await daemon?.stop();
    await api?.destroy();
  });

  function get(path: string, auth: { token?: string; cert?: string; key?: string } = {}): Promise<number> {
    return new Promise((resolve) => {
      https
        .get(
          `https://127.0.0.1:${port}${path}`,
          {
            rejectUnauthorized: false,
            agent: false,
            timeout: 5000,
            ...(auth.cert ? { cert: auth.cert, key: auth.key } : {}),
            headers: auth.token ? { Authorization: `Bearer ${auth.token}` } : {},
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', () => resolve(0));
    });
  }

  it('lets anyone read the health endpoints, and no anonymous user /metrics', async () => {
    expect(await get('/healthz')).toBe(200);
    expect(await get('/livez')).toBe(200);
    // ready once its caches have synced
    await eventually(async () => (await get('/readyz')) === 200, 'ready');
    expect(await get('/metrics')).toBe(401);
  });

  it('asks the apiserver about tokens and access: a reader gets /metrics, another user 403, a bad token 401', async () => {
    expect(await get('/metrics', { token: 'reader-token' })).toBe(200);
    expect(await get('/metrics', { token: 'nobody-token' })).toBe(403);
    expect(await get('/metrics', { token: 'no-such-token' })).toBe(401);
  });

  it('verifies client certificates by the client CA the apiserver publishes', async () => {
    // the admin is in system:masters
    expect(await get('/metrics', api.pki.admin)).toBe(200);
  });
});
