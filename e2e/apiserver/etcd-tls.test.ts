import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdCluster, EtcdKVClient, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';
import { kubectlOK } from '../harness/kubectl';

/**
 * orch-apiserver on an etcd that serves clients over TLS only and asks for a client certificate, as
 * production etcd does, with `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` and its keys under
 * `--etcd-prefix`; used with stock kubectl.
 */
describe('orch-apiserver on etcd over TLS', () => {
  let cluster: EtcdCluster;
  let api: APIServerProcess;
  let dir: string;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({ members: 1, tls: true });
    dir = mkdtempSync(join(tmpdir(), 'orch-etcd-tls-'));
    const file = (name: string, pem: Buffer) => {
      writeFileSync(join(dir, name), pem, { mode: 0o600 });
      return join(dir, name);
    };
    const tls = cluster.tls!;
    api = await startAPIServerProcess({
      etcdServers: cluster.endpoints,
      args: [
        `--etcd-cafile=${file('ca.crt', tls.ca)}`,
        `--etcd-certfile=${file('client.crt', tls.cert)}`,
        `--etcd-keyfile=${file('client.key', tls.key)}`,
        '--etcd-prefix=/orch-tls',
      ],
    });
  });

  afterAll(async () => {
    await api?.destroy();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('kubectl creates and reads through it; the objects live under the prefix in etcd', async () => {
    await kubectlOK(api.kubeconfig, ['create', 'configmap', 'over-tls', '--from-literal=k=v']);
    const got = JSON.parse(
      await kubectlOK(api.kubeconfig, ['get', 'configmap', 'over-tls', '-o', 'json']),
    ) as {
      data: Record<string, string>;
    };
    expect(got.data).toEqual({ k: 'v' });

    const raw = new EtcdKVClient({ endpoints: cluster.endpoints, timeoutMs: 5000, tls: cluster.tls });
    try {
      const stored = await raw.range({ key: Buffer.from('/orch-tls/core/configmaps/default/over-tls') });
      expect(stored.kvs).toHaveLength(1);
      expect(JSON.parse(Buffer.from(stored.kvs[0]!.value).toString())).toMatchObject({
        metadata: { name: 'over-tls', namespace: 'default' },
        data: { k: 'v' },
      });
    } finally {
      raw.close();
    }
  });
});
