import type { Worker } from 'node:worker_threads';
import { Cacher } from '../cacher/cacher';
import { runStorageConformance } from '../conformance/storage-conformance';
import { WatchRecorder } from '../conformance/watch-recorder';
import { etcdStorageInThread } from '../etcd/etcd-in-thread';
import { EtcdCluster } from '../testing/etcd-cluster';
import type { ThreadStorage } from './thread-storage';

let cluster: EtcdCluster;

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 1 });
});

afterAll(async () => {
  await cluster.stop();
});

const etcdInThread = () => etcdStorageInThread({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });

runStorageConformance('etcd in a storage thread', async () => etcdInThread());

runStorageConformance('watch cache over etcd in a storage thread', async () =>
  Cacher.start(etcdInThread(), { prefix: '/registry/', ownsBackend: true }),
);

describe('storage thread', () => {
  const threadOf = (store: ThreadStorage) => (store as unknown as { worker: Worker }).worker;

  test('a value from a pooled Buffer crosses with exactly its bytes and comes back as a Buffer', async () => {
    const store = etcdInThread();
    try {
      // small Buffers share one pool slab; only the value's own bytes may be stored
      const pooled = Buffer.from('pooled value');
      expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
      const created = await store.create('/registry/thread/pooled', pooled);
      const read = await store.get('/registry/thread/pooled');
      expect(Buffer.isBuffer(read?.value)).toBe(true);
      expect(read?.value.toString()).toBe('pooled value');
      expect(read?.modRevision).toBe(created.modRevision);
      const list = await store.list('/registry/thread/');
      expect(list.items.map((kv) => kv.value.toString())).toEqual(['pooled value']);
    } finally {
      await store.close();
    }
  });

  test('errors keep their code and the current value of a conflict', async () => {
    const store = etcdInThread();
    try {
      const first = await store.create('/registry/thread/conflict', Buffer.from('one'));
      await store.update('/registry/thread/conflict', Buffer.from('two'), first.modRevision);
      const error = await store
        .update('/registry/thread/conflict', Buffer.from('three'), first.modRevision)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'Conflict', details: { key: '/registry/thread/conflict' } });
      expect((error as { details: { current: { value: Buffer } } }).details.current.value.toString()).toBe(
        'two',
      );
      await expect(store.create('/registry/thread/conflict', Buffer.from('x'))).rejects.toMatchObject({
        code: 'KeyExists',
      });
    } finally {
      await store.close();
    }
  });

  test('when the thread dies, calls in flight and watches fail Unavailable and the next call works', async () => {
    const store = etcdInThread();
    try {
      const recorder = await WatchRecorder.start(store, '/registry/thread/dies/', 0);
      const inFlight = store.currentRevision();
      await threadOf(store).terminate();
      await expect(inFlight).rejects.toMatchObject({ code: 'Unavailable' });
      expect(await recorder.waitForError()).toMatchObject({ code: 'Unavailable' });
      const kv = await store.create('/registry/thread/dies/after', Buffer.from('v'));
      expect((await store.get('/registry/thread/dies/after'))?.modRevision).toBe(kv.modRevision);
    } finally {
      await store.close();
    }
  });

  test('a closed store refuses calls', async () => {
    const store = etcdInThread();
    await store.close();
    await expect(store.get('/registry/x')).rejects.toMatchObject({ code: 'Unavailable' });
  });
});
