import { EtcdCluster } from '../testing/etcd-cluster';
import { report, runConcurrently, timed } from '../testing/measure';
import { EtcdStorage } from './etcd-storage';

describe('etcd backend throughput (1 member, data on tmpfs)', () => {
  let cluster: EtcdCluster;
  let store: EtcdStorage;

  beforeAll(async () => {
    cluster = await EtcdCluster.start({ members: 1 });
    store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
  });

  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
  });

  const value = Buffer.from(
    JSON.stringify({ kind: 'Pod', metadata: { name: 'x' }, spec: { a: 'b'.repeat(300) } }),
  );

  test('creates per second', async () => {
    const sequential = 1000;
    const seqMs = await timed(async () => {
      for (let i = 0; i < sequential; i++) await store.create(`/registry/pods/seq/p${i}`, value);
    });
    const count = 5_000;
    const ms = await timed(() =>
      runConcurrently(count, 64, (i) =>
        store.create(`/registry/pods/perf/p${String(i).padStart(6, '0')}`, value),
      ),
    );
    const rate = Math.round((count / ms) * 1000);
    report(`etcd: ${Math.round((sequential / seqMs) * 1000)} creates/s one at a time (txn via etcd3)`);
    report(`etcd: ${rate} creates/s with 64 in flight (${count} creates in ${ms.toFixed(0)} ms)`);
    expect(rate).toBeGreaterThan(50);
  });

  test('list of 10k keys', async () => {
    // Seeded through the raw client, 100 puts per transaction, to keep the test short.
    for (let batch = 0; batch < 100; batch++) {
      await store.client.kv.txn({
        success: Array.from({ length: 100 }, (_, i) => ({
          request_put: {
            key: Buffer.from(`/registry/pods/list/p${String(batch * 100 + i).padStart(6, '0')}`),
            value,
          },
        })),
      });
    }
    const all = await store.list('/registry/pods/list/');
    expect(all.items).toHaveLength(10_000);
    const whole = await timed(() => store.list('/registry/pods/list/'));
    let chunks = 0;
    const chunked = await timed(async () => {
      let page = await store.list('/registry/pods/list/', { revision: all.revision, limit: 500 });
      chunks++;
      while (page.more) {
        page = await store.list('/registry/pods/list/', {
          revision: all.revision,
          limit: 500,
          startKey: `${page.items[page.items.length - 1].key}\0`,
        });
        chunks++;
      }
    });
    report(`etcd: list 10k keys ${whole.toFixed(1)} ms; in ${chunks} chunks of 500 ${chunked.toFixed(1)} ms`);
    expect(whole).toBeLessThan(10_000);
  });
});
