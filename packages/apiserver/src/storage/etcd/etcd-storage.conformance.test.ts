import { Cacher } from '../cacher/cacher';
import { runStorageConformance } from '../conformance/storage-conformance';
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

  test('a closed store refuses calls', async () => {
    const store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    await store.close();
    await expect(store.get('/registry/x')).rejects.toMatchObject({ code: 'Unavailable' });
  });
});
