import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretKind, ServiceAccountKind, type Secret } from '@orch/api';
import { eventually, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import {
  clientFor,
  isNotFound,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
} from '@orch/client';
import { kubectl, kubectlOK } from '../harness/kubectl';
import { runInProcessManager, type InProcessManager } from './inProcessManager';

jest.setTimeout(120_000);

const NS = 'default';

function tokenSecretYAML(name: string, account: string): string {
  return [
    'apiVersion: v1',
    'kind: Secret',
    'type: kubernetes.io/service-account-token',
    'metadata:',
    `  name: ${name}`,
    '  annotations:',
    `    kubernetes.io/service-account.name: ${account}`,
    '',
  ].join('\n');
}

describe('serviceaccount-token with the cluster key pair', () => {
  let api: APIServerProcess;
  let rest: RestClient;
  let daemon: InProcessManager;

  const run = (argv: string[]): InProcessManager =>
    runInProcessManager([
      `--kubeconfig=${api.pki.kubeconfigs['controller-manager']}`,
      '--use-service-account-credentials',
      ...argv,
    ]);

  /** kubectl with nothing but the apiserver's address, its CA and a bearer token. */
  async function asToken(token: string, args: string[]) {
    const kubeconfig = join(api.dataDir, `token-${Math.random().toString(36).slice(2)}.kubeconfig`);
    const ca = Buffer.from(readFileSync(api.pki.files.caCert)).toString('base64');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- {name: orch, cluster: {server: "${api.url}", certificate-authority-data: ${ca}}}`,
        `users:`,
        `- {name: sa, user: {token: "${token}"}}`,
        'contexts:',
        '- {name: sa, context: {cluster: orch, user: sa}}',
        'current-context: sa',
        '',
      ].join('\n'),
    );
    return kubectl(kubeconfig, args);
  }

  async function filled(name: string): Promise<Secret> {
    const secrets = clientFor(rest, SecretKind);
    return eventually(async () => {
      const s = await secrets.get(name, { namespace: NS });
      return s.data?.token ? s : undefined;
    }, `${name} to get its token`);
  }

  async function gone(name: string): Promise<void> {
    const secrets = clientFor(rest, SecretKind);
    await eventually(async () => {
      try {
        await secrets.get(name, { namespace: NS });
        return undefined;
      } catch (err) {
        if (isNotFound(err)) return true;
        throw err;
      }
    }, `${name} to be deleted`);
  }

  beforeAll(async () => {
    api = await startAPIServerProcess();
    rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
    daemon = run([
      '--controllers=serviceaccount-token,serviceaccount',
      `--service-account-private-key-file=${api.pki.files.serviceAccountKey}`,
      `--root-ca-file=${api.pki.files.caCert}`,
    ]);
  });
  afterAll(async () => {
    await daemon?.stop();
    rest?.close();
    await api?.destroy();
  });

  test('a token secret gets a token the apiserver authenticates as its service account, until it is deleted', async () => {
    await kubectlOK(api.kubeconfig, ['create', 'serviceaccount', 'ci']);
    await kubectlOK(api.kubeconfig, ['apply', '-f', '-'], tokenSecretYAML('ci-token', 'ci'));
    const secret = await filled('ci-token');
    const sa = await clientFor(rest, ServiceAccountKind).get('ci', { namespace: NS });
    expect(secret.metadata?.annotations?.['kubernetes.io/service-account.uid']).toBe(sa.metadata?.uid);
    const decoded = (k: string): string => Buffer.from(secret.data?.[k] ?? '', 'base64').toString();
    expect(decoded('namespace')).toBe(NS);
    expect(decoded('ca.crt')).toBe(readFileSync(api.pki.files.caCert, 'utf8'));

    const token = await kubectlOK(api.kubeconfig, [
      'get',
      'secret',
      'ci-token',
      '-o',
      'jsonpath={.data.token}',
    ]);
    const jwt = Buffer.from(token, 'base64').toString();
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      iss: 'kubernetes/serviceaccount',
      sub: 'system:serviceaccount:default:ci',
      'kubernetes.io/serviceaccount/secret.name': 'ci-token',
      'kubernetes.io/serviceaccount/service-account.uid': sa.metadata?.uid,
    });

    const whoami = await asToken(jwt, ['auth', 'whoami', '-o', 'json']);
    expect(whoami.code).toBe(0);
    const user = (
      JSON.parse(whoami.stdout) as { status: { userInfo: { username: string; groups: string[] } } }
    ).status.userInfo;
    expect(user.username).toBe('system:serviceaccount:default:ci');
    expect(user.groups).toEqual(
      expect.arrayContaining([
        'system:serviceaccounts',
        'system:serviceaccounts:default',
        'system:authenticated',
      ]),
    );
    // with nothing but flags: a kubeconfig holding a client certificate would authenticate by it first
    const empty = join(api.dataDir, 'empty.kubeconfig');
    writeFileSync(empty, 'apiVersion: v1\nkind: Config\n');
    const flags = ['--server', api.url, '--certificate-authority', api.pki.files.caCert, '--token', jwt];
    expect(await kubectlOK(empty, [...flags, 'auth', 'whoami'])).toContain(
      'system:serviceaccount:default:ci',
    );
    // authenticated, not authorized
    const pods = await asToken(jwt, ['get', 'pods']);
    expect(pods.code).not.toBe(0);
    expect(pods.stderr).toContain(
      'is forbidden: User "system:serviceaccount:default:ci" cannot list resource "pods"',
    );

    await kubectlOK(api.kubeconfig, ['delete', 'secret', 'ci-token']);
    const after = await asToken(jwt, ['auth', 'whoami']);
    expect(after.code).not.toBe(0);
    expect(after.stderr).toContain('Unauthorized');
  });

  test('the token secrets of a deleted service account go, and so does a secret naming none', async () => {
    await kubectlOK(api.kubeconfig, ['create', 'serviceaccount', 'build']);
    await kubectlOK(api.kubeconfig, ['apply', '-f', '-'], tokenSecretYAML('build-token', 'build'));
    await filled('build-token');
    await kubectlOK(api.kubeconfig, ['delete', 'serviceaccount', 'build']);
    await gone('build-token');

    await kubectlOK(api.kubeconfig, ['apply', '-f', '-'], tokenSecretYAML('orphan-token', 'nobody'));
    await gone('orphan-token');
  });

  test('a token secret naming the UID of an earlier service account of that name is deleted', async () => {
    await kubectlOK(api.kubeconfig, ['create', 'serviceaccount', 'deploy']);
    await kubectlOK(
      api.kubeconfig,
      ['apply', '-f', '-'],
      tokenSecretYAML('deploy-token', 'deploy').replace(
        '  annotations:\n',
        '  annotations:\n    kubernetes.io/service-account.uid: 00000000-0000-0000-0000-000000000000\n',
      ),
    );
    await gone('deploy-token');
  });

  test('without a private key the controller does not start and says why; a bad key fails the start', async () => {
    const without = run(['--controllers=serviceaccount-token']);
    await eventually(
      () =>
        without.out.join('').includes('"serviceaccount-token" is disabled because there is no private key'),
      'the notice',
    );
    expect(await without.stop()).toBe(0);

    const bad = join(api.dataDir, 'bad.key');
    writeFileSync(bad, readFileSync(api.pki.files.serviceAccountPublicKey));
    const failing = run(['--controllers=serviceaccount-token', `--service-account-private-key-file=${bad}`]);
    expect(await failing.done).toBe(1);
    expect(failing.out.join('')).toContain(
      '--service-account-private-key-file: error reading key for service account token controller: data does not contain a valid RSA or ECDSA private key',
    );
  });
});
