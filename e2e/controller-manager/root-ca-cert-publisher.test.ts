import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapKind, NamespaceKind } from '@orch/api';
import { eventually, startTestAPIServer, type TestAPIServer } from '@orch/apiserver';
import {
  clientFor,
  isNotFound,
  loadKubeconfigFile,
  restConfigFromKubeconfig,
  RestClient,
} from '@orch/client';
import { createCA } from '@orch/component-base';
import { ROOT_CA_DESCRIPTION } from '@orch/controller-manager';
import { startCluster, type Cluster } from './harness';
import { runInProcessManager, type InProcessManager } from './inProcessManager';

jest.setTimeout(90_000);

const NAME = 'kube-root-ca.crt';

/** The kube-root-ca.crt ConfigMap of `namespace` once it holds `ca` and the description. */
function published(rest: RestClient, namespace: string, ca: string) {
  const configMaps = clientFor(rest, ConfigMapKind);
  return eventually(
    async () => {
      try {
        const cm = await configMaps.get(NAME, { namespace });
        return cm.data?.['ca.crt'] === ca &&
          Object.keys(cm.data).length === 1 &&
          cm.metadata?.annotations?.['kubernetes.io/description'] === ROOT_CA_DESCRIPTION
          ? cm
          : undefined;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    `${namespace}/${NAME} to hold the CA`,
    20_000,
  );
}

describe('with the client CA', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await cluster?.close();
  });

  test('every namespace, existing or new, gets kube-root-ca.crt with the CA of the apiserver', async () => {
    expect(cluster.api.ca).toContain('-----BEGIN CERTIFICATE-----');
    const existing = (await clientFor(cluster.rest, NamespaceKind).list()).items.map(
      (n) => n.metadata!.name!,
    );
    expect(existing).toEqual(expect.arrayContaining(['default', 'orch-system', 'orch-public']));
    for (const ns of existing) await published(cluster.rest, ns, cluster.api.ca);
    await cluster.kubectl('create', 'namespace', 'team-a');
    await published(cluster.rest, 'team-a', cluster.api.ca);
    // as kubectl shows it
    const yaml = await cluster.kubectl('get', 'configmap', NAME, '-n', 'team-a', '-o', 'yaml');
    expect(yaml).toContain('kubernetes.io/description: Contains a CA bundle that can be used to verify the');
    const ca = await cluster.kubectl('get', 'cm', NAME, '-n', 'team-a', '-o', 'jsonpath={.data.ca\\.crt}');
    expect(ca).toBe(cluster.api.ca);
  });

  test('a deleted one comes back; an edited one is restored', async () => {
    const before = await published(cluster.rest, 'default', cluster.api.ca);
    await cluster.kubectl('delete', 'configmap', NAME, '-n', 'default');
    const recreated = await published(cluster.rest, 'default', cluster.api.ca);
    expect(recreated.metadata?.uid).not.toBe(before.metadata?.uid);

    await cluster.kubectl(
      'patch',
      'configmap',
      NAME,
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"data":{"ca.crt":"tampered","extra":"x"},"metadata":{"labels":{"team":"a"}}}',
    );
    const restored = await published(cluster.rest, 'default', cluster.api.ca);
    expect(restored.metadata?.uid).toBe(recreated.metadata?.uid);
    // the rest of its metadata is the user's
    expect(restored.metadata?.labels).toEqual({ team: 'a' });

    await cluster.kubectl('annotate', 'configmap', NAME, '-n', 'default', 'kubernetes.io/description-');
    await published(cluster.rest, 'default', cluster.api.ca);
  });

  test('a namespace being deleted is left alone and goes away', async () => {
    await cluster.kubectl('create', 'namespace', 'doomed');
    await published(cluster.rest, 'doomed', cluster.api.ca);
    await cluster.kubectl('delete', 'namespace', 'doomed', '--wait=false');
    await eventually(
      async () => {
        try {
          await clientFor(cluster.rest, NamespaceKind).get('doomed');
          return undefined;
        } catch (err) {
          if (isNotFound(err)) return true;
          throw err;
        }
      },
      'namespace doomed to be gone',
      30_000,
    );
  });
});

describe('the daemon with --root-ca-file', () => {
  let api: TestAPIServer;
  let rest: RestClient;
  let dir: string;
  beforeAll(async () => {
    api = await startTestAPIServer({ admissionPlugins: [] });
    rest = new RestClient(restConfigFromKubeconfig(loadKubeconfigFile(api.kubeconfig)).config);
    dir = mkdtempSync(join(tmpdir(), 'orch-root-ca-'));
  });
  afterAll(async () => {
    rest?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (argv: string[]): InProcessManager =>
    runInProcessManager([`--kubeconfig=${api.kubeconfig}`, '--controllers=root-ca-cert-publisher', ...argv]);

  test('a missing or non-PEM file fails the start, naming the flag', async () => {
    const missing = run([`--root-ca-file=${join(dir, 'missing.crt')}`]);
    expect(await missing.done).toBe(1);
    expect(missing.out.join('')).toContain(
      `--root-ca-file: error reading CA bundle file "${join(dir, 'missing.crt')}"`,
    );
    const notPem = join(dir, 'not-pem.crt');
    writeFileSync(notPem, 'not a certificate\n');
    const bad = run([`--root-ca-file=${notPem}`]);
    expect(await bad.done).toBe(1);
    expect(bad.out.join('')).toContain(`--root-ca-file: error parsing CA bundle file "${notPem}"`);
  });

  test('the bundle of the file is published instead of the client CA', async () => {
    const bundle = createCA('root-a').cert + createCA('root-b').cert;
    const file = join(dir, 'bundle.crt');
    writeFileSync(file, bundle);
    const daemon = run([`--root-ca-file=${file}`]);
    await published(rest, 'default', bundle);
    await published(rest, 'orch-system', bundle);
    expect(daemon.out.join('')).not.toContain('has no effect');
    expect(await daemon.stop()).toBe(0);
  });
});
