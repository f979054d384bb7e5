import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildConfigFromFlags } from './buildConfigFromFlags';
import { FileTokenSource } from './FileTokenSource';
import { inClusterConfig, NotInClusterError } from './inClusterConfig';
import {
  defaultKubeconfigFiles,
  loadKubeconfigFile,
  loadKubeconfigFiles,
  parseKubeconfig,
} from './loadKubeconfig';
import { restConfigFromKubeconfig } from './restConfigFromKubeconfig';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-kubeconfig-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(rel: string, content: string): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

const twoContexts = `
apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: main
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority: pki/ca.crt
    tls-server-name: api.internal
- name: other
  cluster:
    server: https://other.example:443
    certificate-authority-data: ${b64('OTHER CA')}
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    client-certificate: pki/admin.crt
    client-key: /abs/ignored-because-data-wins.key
    client-key-data: ${b64('ADMIN KEY')}
- name: robot
  user:
    tokenFile: tokens/robot
- name: static
  user:
    token: abc.def
- name: basic
  user:
    username: alice
    password: s3cret
contexts:
- name: admin
  context: { cluster: main, user: admin, namespace: kube-system }
- name: robot
  context: { cluster: main, user: robot }
- name: static
  context: { cluster: other, user: static, namespace: apps }
- name: basic
  context: { cluster: other, user: basic }
`;

describe('kubeconfig', () => {
  it('resolves relative paths against the file directory and reads files and inline data', () => {
    write('conf/pki/ca.crt', 'MAIN CA');
    write('conf/pki/admin.crt', 'ADMIN CERT');
    const file = write('conf/kubeconfig', twoContexts);
    const kc = loadKubeconfigFile(file);
    expect(kc.clusters[0]!.value['certificate-authority']).toBe(path.join(dir, 'conf/pki/ca.crt'));
    expect(kc.users[1]!.value.tokenFile).toBe(path.join(dir, 'conf/tokens/robot'));
    const { config, namespace, context } = restConfigFromKubeconfig(kc);
    expect(context).toBe('admin');
    expect(namespace).toBe('kube-system');
    expect(config.server).toBe('https://10.0.0.1:6443');
    expect(config.ca?.toString()).toBe('MAIN CA');
    expect(config.tlsServerName).toBe('api.internal');
    expect(config.cert?.toString()).toBe('ADMIN CERT');
    expect(config.key?.toString()).toBe('ADMIN KEY');
    expect(config.insecure).toBeUndefined();
  });

  it('selects explicit contexts: token, token file, basic auth, insecure; default namespace', () => {
    write('conf/pki/ca.crt', 'MAIN CA');
    const kc = parseKubeconfig(twoContexts, path.join(dir, 'conf'));
    const robot = restConfigFromKubeconfig(kc, { context: 'robot' });
    expect(robot.namespace).toBe('default');
    expect(robot.config.tokenFile).toBe(path.join(dir, 'conf/tokens/robot'));
    const stat = restConfigFromKubeconfig(kc, { context: 'static' });
    expect(stat.config).toMatchObject({
      server: 'https://other.example:443',
      token: 'abc.def',
      insecure: true,
    });
    expect(stat.config.ca?.toString()).toBe('OTHER CA');
    expect(stat.namespace).toBe('apps');
    expect(restConfigFromKubeconfig(kc, { context: 'basic' }).config).toMatchObject({
      username: 'alice',
      password: 's3cret',
    });
    expect(() => restConfigFromKubeconfig(kc, { context: 'nope' })).toThrow(/context "nope"/);
  });

  it('applies the --master override and builds from flags', () => {
    write('conf/pki/ca.crt', 'MAIN CA');
    write('conf/pki/admin.crt', 'ADMIN CERT');
    const file = write('conf/kubeconfig', twoContexts);
    const fromFlags = buildConfigFromFlags({ kubeconfig: file, master: 'https://127.0.0.1:7443' });
    expect(fromFlags.config.server).toBe('https://127.0.0.1:7443');
    expect(fromFlags.config.ca?.toString()).toBe('MAIN CA');
    expect(buildConfigFromFlags({ master: '10.1.1.1:6443' }).config).toEqual({
      server: 'https://10.1.1.1:6443',
    });
    const ctx = buildConfigFromFlags({ kubeconfig: file, context: 'static' });
    expect(ctx.config.server).toBe('https://other.example:443');
    const masterOnly = restConfigFromKubeconfig(parseKubeconfig('{}', dir), { master: 'https://m:1' });
    expect(masterOnly.config.server).toBe('https://m:1');
    expect(() => restConfigFromKubeconfig(parseKubeconfig('{}', dir))).toThrow(/no server/);
  });

  it('merges several files, first definition and first current-context winning', () => {
    const a = write(
      'a/config',
      'current-context: one\nclusters:\n- name: c\n  cluster: {server: "https://a:1", certificate-authority: ca.crt}\ncontexts:\n- name: one\n  context: {cluster: c}\n',
    );
    const b = write(
      'b/config',
      'current-context: two\nclusters:\n- name: c\n  cluster: {server: "https://b:1"}\n- name: d\n  cluster: {server: "https://d:1"}\ncontexts:\n- name: two\n  context: {cluster: d}\n',
    );
    const kc = loadKubeconfigFiles([a, path.join(dir, 'missing'), b]);
    expect(kc.currentContext).toBe('one');
    expect(kc.clusters.map((c) => [c.name, c.value.server])).toEqual([
      ['c', 'https://a:1'],
      ['d', 'https://d:1'],
    ]);
    expect(kc.clusters[0]!.value['certificate-authority']).toBe(path.join(dir, 'a/ca.crt'));
    expect(defaultKubeconfigFiles({ KUBECONFIG: `${a}${path.delimiter}${b}` })).toEqual([a, b]);
    expect(defaultKubeconfigFiles({ HOME: '/home/u' })).toEqual(['/home/u/.kube/config']);
  });
});

describe('in-cluster config', () => {
  it('reads token, CA and namespace from the service-account directory and the service env', () => {
    write('sa/token', 'tok-1\n');
    write('sa/ca.crt', 'CLUSTER CA');
    write('sa/namespace', 'team-a\n');
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    const { config, namespace } = inClusterConfig({ baseDir: path.join(dir, 'sa'), env });
    expect(config.server).toBe('https://10.96.0.1:443');
    expect(config.tokenFile).toBe(path.join(dir, 'sa/token'));
    expect(config.ca?.toString()).toBe('CLUSTER CA');
    expect(namespace).toBe('team-a');
    const v6 = inClusterConfig({
      baseDir: path.join(dir, 'sa'),
      env: { ...env, KUBERNETES_SERVICE_HOST: 'fd00::1' },
    });
    expect(v6.config.server).toBe('https://[fd00::1]:443');
    expect(() => inClusterConfig({ baseDir: path.join(dir, 'sa'), env: {} })).toThrow(NotInClusterError);
    expect(buildConfigFromFlags({ inCluster: { baseDir: path.join(dir, 'sa'), env } }).namespace).toBe(
      'team-a',
    );
  });

  it('re-reads a rotated token file after the refresh period', () => {
    const file = write('sa/token', 'first\n');
    let now = 0;
    const src = new FileTokenSource(file, 60_000, () => now);
    expect(src.token()).toBe('first');
    fs.writeFileSync(file, 'second');
    now = 59_000;
    expect(src.token()).toBe('first');
    now = 60_000;
    expect(src.token()).toBe('second');
    fs.rmSync(file);
    now = 200_000;
    expect(src.token()).toBe('second'); // a failed re-read keeps the last token
    expect(() => new FileTokenSource(path.join(dir, 'none')).token()).toThrow();
  });
});
