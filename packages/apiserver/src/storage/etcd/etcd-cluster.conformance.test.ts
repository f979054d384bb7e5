import { runStorageConformance } from '../conformance/storage-conformance';
import { WatchRecorder, waitUntil } from '../conformance/watch-recorder';
import { isStorageError } from '../storage-error';
import { EtcdCluster } from '../testing/etcd-cluster';
import { EtcdStorage } from './etcd-storage';

let cluster: EtcdCluster;

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 3 });
});

afterAll(async () => {
  await cluster.stop();
});

runStorageConformance(
  'etcd, 3 members',
  async () => new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 }),
);

describe('etcd, 3 members: a member killed under write load', () => {
  test('writes go on, nothing acknowledged is lost, the watch misses nothing', async () => {
    const store = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
    const prefix = '/registry/crash/';
    const recorder = await WatchRecorder.start(store, prefix, await store.currentRevision());
    const acknowledged = new Map<string, number>();
    let ackedAfterKill = 0;
    let killed = false;
    let stop = false;
    let failures = 0;

    // Each writer creates its own keys; a create whose outcome is unknown is retried, and
    // KeyExists on a retry means the first attempt had landed.
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const key = `${prefix}w${w}-${i}`;
        for (let attempt = 0; ; attempt++) {
          try {
            const kv = await store.create(key, Buffer.from(String(i)));
            acknowledged.set(key, kv.modRevision);
            break;
          } catch (error) {
            if (attempt > 0 && isStorageError(error, 'KeyExists')) {
              acknowledged.set(key, (await store.get(key))!.modRevision);
              break;
            }
            if (!isStorageError(error, 'Unavailable') || attempt > 50) throw error;
            failures++;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        if (killed) ackedAfterKill++;
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    try {
      await checks();
    } finally {
      stop = true;
      await Promise.allSettled(writers);
      recorder.stop();
      await store.close();
    }

    async function checks() {
      await waitUntil(
        () => acknowledged.size >= 200,
        20_000,
        () => 'writes before the kill',
      );
      await cluster.kill(await cluster.leader());
      killed = true;
      await waitUntil(
        () => ackedAfterKill >= 200,
        30_000,
        () => `writes after the kill: ${ackedAfterKill}`,
      );
      stop = true;
      await Promise.all(writers);

      const listed = await store.list(prefix);
      const stored = new Map(listed.items.map((kv) => [kv.key, kv.modRevision]));
      for (const [key, revision] of acknowledged) expect(stored.get(key)).toBe(revision);

      const events = await recorder.waitForEvents(acknowledged.size, 30_000);
      const revisions = events.map((e) => e.modRevision);
      for (let i = 1; i < revisions.length; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]);
      expect(new Set(events.map((e) => e.key))).toEqual(new Set(acknowledged.keys()));
      expect(recorder.errors).toEqual([]);
      expect(failures).toBeLessThan(200);
    }
  }, 120_000);
});
