import net from 'node:net';
import { Cacher } from '../cacher/cacher';
import { runStorageConformance } from '../conformance/storage-conformance';
import { WatchRecorder } from '../conformance/watch-recorder';
import { runConcurrently } from '../testing/measure';
import { EtcdCluster } from '../testing/etcd-cluster';
import { EtcdStorage } from './etcd-storage';

let cluster: EtcdCluster;

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 1 });
});

afterAll(async () => {
  await cluster.stop();
});

runStorageConformance(
  'etcd, 1 member',
  async () => new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 }),
);

runStorageConformance('watch cache over etcd', async () =>
  Cacher.start(new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 }), {
    prefix: '/registry/',
    ownsBackend: true,
  }),
);

describe('etcd backend', () => {
  test('compacts periodically to the revision seen one interval earlier', async () => {
    const store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 150 });
    try {
      const first = await store.create('/registry/periodic/a', Buffer.from('1'));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const compacted = await store.compactedRevision();
      expect(compacted).toBeGreaterThanOrEqual(first.modRevision);
      const error = await store
        .list('/registry/periodic/', { revision: compacted - 1 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'Compacted' });
    } finally {
      await store.close();
    }
  });

  test('a watch still catching up when its history is compacted ends with Compacted', async () => {
    const store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    try {
      const from = await store.currentRevision();
      // etcd replays at most 1000 revisions per watcher per 100 ms; 3000 keep it busy long enough.
      await runConcurrently(3000, 32, (i) => store.create(`/registry/catchup/k${i}`, Buffer.from('x')));
      const recorder = await WatchRecorder.start(store, '/registry/catchup/', from);
      await store.compact(await store.currentRevision());
      const error = await recorder.waitForError();
      expect(error).toMatchObject({ code: 'Compacted' });
      expect(recorder.events.length).toBeLessThan(3000);
      const revisions = recorder.events.map((e) => e.modRevision);
      revisions.forEach((r, i) => i > 0 && expect(r).toBeGreaterThan(revisions[i - 1]));
    } finally {
      await store.close();
    }
  });

  test('a write whose answer is lost is sent again, and finds itself landed instead of failing', async () => {
    // a proxy to the member that, once deaf, passes requests on but drops the member's answers
    let deaf = false;
    const sockets: net.Socket[] = [];
    const proxy = net.createServer((downstream) => {
      const target = new URL(cluster.endpoints[0]!);
      const upstream = net.connect(Number(target.port), target.hostname);
      sockets.push(downstream, upstream);
      downstream.on('data', (d) => upstream.write(d));
      upstream.on('data', (d) => deaf || downstream.write(d));
      downstream.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const direct = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    const store = new EtcdStorage({ endpoints: [proxied, ...cluster.endpoints], compactionIntervalMs: 0 });
    try {
      const key = '/registry/lost-answers/a';
      // calls go to the members in turn: the first through the proxy (its connection now open)
      await store.get(key);
      await store.get(key);
      deaf = true;
      const before = await direct.currentRevision();
      const created = await store.create(key, Buffer.from('one'));
      expect(created).toEqual(await direct.get(key));
      expect(created.modRevision).toBe(before + 1);

      // the proxy is skipped for a second after its silence; then it takes its turns again
      deaf = false;
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await store.get(key);
      await store.get(key);
      deaf = true;
      const updated = await store.update(key, Buffer.from('two'), created.modRevision);
      expect(updated).toEqual(await direct.get(key));
      // applied once: one revision for the update
      expect(updated.modRevision).toBe(created.modRevision + 1);
      expect(updated.createRevision).toBe(created.createRevision);
      expect(await direct.currentRevision()).toBe(updated.modRevision);
    } finally {
      for (const socket of sockets) socket.destroy();
      proxy.close();
      await store.close();
      await direct.close();
    }
  });

  test('a closed store refuses calls', async () => {
    const store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    await store.close();
    await expect(store.get('/registry/x')).rejects.toMatchObject({ code: 'Unavailable' });
  });
});
