import { createHmac } from 'node:crypto';
import {
  ConfigMapKind,
  formatTime,
  RoleBindingKind,
  SecretKind,
  ServiceAccountKind,
  type Secret,
} from '@orch/api';
import { eventually, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import {
  clientFor,
  isNotFound,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
} from '@orch/client';
import { runInProcessManager, type InProcessManager } from './inProcessManager';

jest.setTimeout(120_000);

const SYSTEM = 'orch-system';
const PUBLIC = 'orch-public';
const KUBECONFIG = [
  'apiVersion: v1',
  'kind: Config',
  'clusters:',
  '- cluster: {server: "https://10.0.0.1:6443"}',
  '  name: ""',
  '',
].join('\n');

/** The detached JWS a joining node checks (RFC 7515 appendix F): HS256 keyed with the token secret. */
function verifies(jws: string, content: string, id: string, secret: string): boolean {
  const [header, payload, signature] = jws.split('.');
  if (payload !== '' || !header || !signature) return false;
  const decoded = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  if (decoded.alg !== 'HS256' || decoded.kid !== id) return false;
  const input = `${header}.${Buffer.from(content).toString('base64url')}`;
  return createHmac('sha256', secret).update(input).digest('base64url') === signature;
}

function tokenSecret(
  id: string,
  secret: string,
  extra: Record<string, string> = {},
  namespace = SYSTEM,
): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'bootstrap.kubernetes.io/token',
    metadata: { name: `bootstrap-token-${id}`, namespace },
    stringData: { 'token-id': id, 'token-secret': secret, ...extra },
  } as Secret;
}

describe('bootstrapsigner and tokencleaner, each as its service account', () => {
  let api: APIServerProcess;
  let rest: RestClient;
  let daemon: InProcessManager;
  const secrets = () => clientFor(rest, SecretKind);
  const configMaps = () => clientFor(rest, ConfigMapKind);
  const clusterInfo = () => configMaps().get('cluster-info', { namespace: PUBLIC });
  const signatures = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      Object.entries((await clusterInfo()).data ?? {}).filter(([k]) => k.startsWith('jws-kubeconfig-')),
    );
  const exists = async (name: string, namespace: string): Promise<boolean> => {
    try {
      await secrets().get(name, { namespace });
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  };

  beforeAll(async () => {
    api = await startAPIServerProcess();
    rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
    daemon = runInProcessManager([
      `--kubeconfig=${api.pki.kubeconfigs['controller-manager']}`,
      '--use-service-account-credentials',
      '--controllers=*,bootstrapsigner,tokencleaner',
    ]);
    await configMaps().create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info', namespace: PUBLIC },
      data: { kubeconfig: KUBECONFIG },
    });
  });
  afterAll(async () => {
    if (process.env.E2E_LOG) process.stderr.write(daemon?.out.join('') ?? '');
    await daemon?.stop();
    rest?.close();
    await api?.destroy();
  });

  test('a signing token signs cluster-info; a token that may not sign does not; a deleted token takes its signature away', async () => {
    await secrets().create(tokenSecret('aaaaaa', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }));
    await secrets().create(
      tokenSecret('bbbbbb', 'fedcba9876543210', { 'usage-bootstrap-authentication': 'true' }),
    );
    // named after another id than its own
    await secrets().create({
      ...tokenSecret('cccccc', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }),
      metadata: { name: 'bootstrap-token-dddddd', namespace: SYSTEM },
    });
    const signed = await eventually(async () => {
      const sigs = await signatures();
      return sigs['jws-kubeconfig-aaaaaa'] ? sigs : undefined;
    }, 'the signature of token aaaaaa');
    expect(Object.keys(signed)).toEqual(['jws-kubeconfig-aaaaaa']);
    expect(verifies(signed['jws-kubeconfig-aaaaaa']!, KUBECONFIG, 'aaaaaa', '0123456789abcdef')).toBe(true);
    expect(verifies(signed['jws-kubeconfig-aaaaaa']!, `${KUBECONFIG}#`, 'aaaaaa', '0123456789abcdef')).toBe(
      false,
    );

    // a change of a token that leaves the signatures as they are writes nothing
    const before = (await clusterInfo()).metadata?.resourceVersion;
    const other = await secrets().get('bootstrap-token-bbbbbb', { namespace: SYSTEM });
    await secrets().update({
      ...other,
      data: { ...other.data, description: Buffer.from('x').toString('base64') },
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await clusterInfo()).metadata?.resourceVersion).toBe(before);

    // the kubeconfig changes: the signature follows
    const cm = await clusterInfo();
    const changed = `${KUBECONFIG}preferences: {}\n`;
    await configMaps().update({ ...cm, data: { ...cm.data, kubeconfig: changed } });
    await eventually(async () => {
      const sig = (await signatures())['jws-kubeconfig-aaaaaa'];
      return sig && verifies(sig, changed, 'aaaaaa', '0123456789abcdef');
    }, 'the signature of the new kubeconfig');

    await secrets().delete('bootstrap-token-aaaaaa', { namespace: SYSTEM });
    await eventually(async () => Object.keys(await signatures()).length === 0, 'the signature to go');
  });

  test('a token is deleted when it expires, and its signature goes; a bootstrap token of another namespace stays', async () => {
    const expiration = formatTime(Date.now() + 4000);
    await secrets().create(
      tokenSecret('eeeeee', '0123456789abcdef', { 'usage-bootstrap-signing': 'true', expiration }),
    );
    await secrets().create(
      tokenSecret('ffffff', '0123456789abcdef', { 'usage-bootstrap-signing': 'true', expiration }, 'default'),
    );
    const sig = await eventually(
      async () => (await signatures())['jws-kubeconfig-eeeeee'],
      'the signature of token eeeeee',
    );
    expect(sig).toBeDefined();
    await eventually(
      async () => !(await exists('bootstrap-token-eeeeee', SYSTEM)),
      'the token to be deleted',
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiration));
    await eventually(
      async () => (await signatures())['jws-kubeconfig-eeeeee'] === undefined,
      'its signature to go',
    );
    expect(await exists('bootstrap-token-ffffff', 'default')).toBe(true);
  });

  test('a token whose expiration does not parse is deleted at once', async () => {
    await secrets().create(tokenSecret('gggggg', '0123456789abcdef', { expiration: 'tomorrow' }));
    await eventually(
      async () => !(await exists('bootstrap-token-gggggg', SYSTEM)),
      'the token to be deleted',
    );
  });
  test('the token cleaner acts as token-cleaner, which only its RoleBinding lets delete the tokens', async () => {
    const accounts = clientFor(rest, ServiceAccountKind);
    for (const name of ['bootstrap-signer', 'token-cleaner'])
      expect((await accounts.get(name, { namespace: SYSTEM })).metadata?.name).toBe(name);
    const bindings = clientFor(rest, RoleBindingKind);
    await bindings.delete('system:controller:token-cleaner', { namespace: SYSTEM });
    await secrets().create(tokenSecret('hhhhhh', '0123456789abcdef', { expiration: 'never' }));
    await eventually(
      () =>
        daemon.out
          .join('')
          .includes(
            'User "system:serviceaccount:orch-system:token-cleaner" cannot delete resource "secrets"',
          ),
      'the delete to be forbidden',
    );
    expect(await exists('bootstrap-token-hhhhhh', SYSTEM)).toBe(true);
  });
});
