import { runStorageConformance } from '../conformance/storage-conformance';
import { EtcdCluster } from '../testing/etcd-cluster';
import { EtcdKVClient, int64 } from './etcd-kv-client';
import { EtcdStorage } from './etcd-storage';

/**
 * etcd as production runs it: clients over TLS only, each with a certificate of the cluster's CA
 * (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`), and orch's keys under `--etcd-prefix`.
 */
let cluster: EtcdCluster;

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 1, tls: true });
});

afterAll(async () => {
  await cluster.stop();
});

const open = (prefix?: string) =>
  new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0, tls: cluster.tls, prefix });

runStorageConformance('etcd over TLS with a client certificate, keys under --etcd-prefix', async () =>
  open('/orch-conformance'),
);

describe('etcd over TLS', () => {
  test('reads, writes and watches with the client certificate', async () => {
    const store = open();
    try {
      const events: string[] = [];
      const watch = await store.watch(
        '/registry/tls/',
        0,
        (e) => events.push(`${e.type} ${e.key}`),
        () => undefined,
      );
      await store.create('/registry/tls/a', Buffer.from('1'));
      expect((await store.get('/registry/tls/a'))?.value.toString()).toBe('1');
      for (let i = 0; i < 50 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(events).toEqual(['put /registry/tls/a']);
      watch.stop();
    } finally {
      await store.close();
    }
  });

  test('without a client certificate the members refuse: Unavailable, nothing written', async () => {
    const store = new EtcdStorage({
      endpoints: cluster.endpoints,
      compactionIntervalMs: 0,
      requestTimeoutMs: 2000,
      tls: { ca: cluster.tls!.ca },
    });
    try {
      await expect(store.create('/registry/tls/refused', Buffer.from('1'))).rejects.toMatchObject({
        code: 'Unavailable',
      });
    } finally {
      await store.close();
    }
    const reader = open();
    try {
      expect(await reader.get('/registry/tls/refused')).toBeUndefined();
    } finally {
      await reader.close();
    }
  });

  test('--etcd-prefix: keys live under the prefix in etcd, and read back as storage keys', async () => {
    const store = open('/cluster-b');
    const raw = new EtcdKVClient({ endpoints: cluster.endpoints, timeoutMs: 5000, tls: cluster.tls });
    try {
      await store.create('/registry/core/configmaps/default/x', Buffer.from('b'));
      const inEtcd = await raw.range({ key: Buffer.from('/cluster-b/core/configmaps/default/x') });
      expect(inEtcd.kvs.map((kv) => Buffer.from(kv.value).toString())).toEqual(['b']);
      expect(
        int64((await raw.range({ key: Buffer.from('/registry/core/configmaps/default/x') })).count),
      ).toBe(0);
      const list = await store.list('/registry/core/configmaps/');
      expect(list.items.map((kv) => kv.key)).toEqual(['/registry/core/configmaps/default/x']);
      // another prefix is another cluster: it sees nothing of this one
      const other = open('/cluster-c');
      try {
        expect((await other.list('/registry/core/configmaps/')).items).toEqual([]);
      } finally {
        await other.close();
      }
    } finally {
      raw.close();
      await store.close();
    }
  });
});
