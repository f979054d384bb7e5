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

  test('a closed store refuses calls', async () => {
    const store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    await store.close();
    await expect(store.get('/registry/x')).rejects.toMatchObject({ code: 'Unavailable' });
  });
});
