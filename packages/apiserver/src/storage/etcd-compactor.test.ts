import { COMPACT_REV_KEY, EtcdCompactor } from './etcd-compactor';
import { EtcdStorage } from './etcd/etcd-storage';
import { EtcdCluster } from './testing/etcd-cluster';

let cluster: EtcdCluster;
let admin: EtcdStorage;

beforeAll(async () => {
  cluster = await EtcdCluster.start({ members: 3 });
  admin = new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: 0 });
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await cluster?.stop();
});

// every test starts with no compaction having been coordinated yet
beforeEach(async () => {
  await admin.client.delete().key(COMPACT_REV_KEY).exec();
});

/** The turn-taking key as etcd holds it now. */
async function compactKey(): Promise<{ version: number; value: string; modRevision: number }> {
  const res = await admin.client.kv.range({ key: Buffer.from(COMPACT_REV_KEY) });
  const kv = res.kvs[0];
  return kv
    ? { version: Number(kv.version), value: kv.value.toString(), modRevision: Number(kv.mod_revision) }
    : { version: 0, value: '', modRevision: 0 };
}

interface Apiserver {
  store: EtcdStorage;
  compactor: EtcdCompactor;
  compacted: { revision: number; at: number }[];
  errors: unknown[];
}

/** One apiserver's storage and compactor; each talks to the members in its own order. */
function apiserver(index: number, intervalMs: number): Apiserver {
  const endpoints = cluster.endpoints;
  const store = new EtcdStorage({
    endpoints: [
      ...endpoints.slice(index % endpoints.length),
      ...endpoints.slice(0, index % endpoints.length),
    ],
    compactionIntervalMs: 0,
  });
  const compacted: Apiserver['compacted'] = [];
  const errors: unknown[] = [];
  const compactor = new EtcdCompactor(store, {
    intervalMs,
    onCompacted: (revision) => compacted.push({ revision, at: Date.now() }),
    onError: (error) => errors.push(error),
  });
  return { store, compactor, compacted, errors };
}

async function shutdown(servers: Apiserver[]): Promise<void> {
  for (const s of servers) {
    await s.compactor.stop();
    await s.store.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('EtcdCompactor', () => {
  test('rounds driven by hand: one compaction per round in total, to the revision noted one round earlier', async () => {
    // an hour-long interval: only the explicit rounds below run
    const [a, b, c] = [0, 1, 2].map((i) => apiserver(i, 3_600_000));
    try {
      await admin.create('/registry/compaction/x', Buffer.from('0'));

      // round 1: a takes the first turn but has nothing noted yet; b and c learn the version
      for (const s of [a, b, c]) await s.compactor.tick();
      const first = await compactKey();
      expect(first).toMatchObject({ version: 1, value: '0' });
      expect([a, b, c].flatMap((s) => s.compacted)).toEqual([]);

      await admin.update('/registry/compaction/x', Buffer.from('1'));

      // round 2: a compacts to the revision of its round-1 write; b and c only learn
      for (const s of [a, b, c]) await s.compactor.tick();
      const second = await compactKey();
      expect(a.compacted.map((x) => x.revision)).toEqual([first.modRevision]);
      expect(second).toMatchObject({ version: 2, value: String(first.modRevision) });
      expect([b, c].flatMap((s) => s.compacted)).toEqual([]);
      expect(await admin.compactedRevision()).toBe(first.modRevision);
      await expect(
        admin.list('/registry/compaction/', { revision: first.modRevision - 1 }),
      ).rejects.toMatchObject({ code: 'Compacted' });
      // history of the last interval is kept
      await expect(
        admin.list('/registry/compaction/', { revision: first.modRevision }),
      ).resolves.toBeDefined();

      // a dies; round 3: b (first to see the version unchanged for a whole round) takes over and
      // compacts to what it noted in round 2, which is a's round-2 write
      await shutdown([a]);
      for (const s of [b, c]) await s.compactor.tick();
      expect(b.compacted.map((x) => x.revision)).toEqual([second.modRevision]);
      expect(c.compacted).toEqual([]);
      expect(await compactKey()).toMatchObject({ version: 3, value: String(second.modRevision) });
      expect(await admin.compactedRevision()).toBe(second.modRevision);
      expect([a, b, c].flatMap((s) => s.errors)).toEqual([]);
    } finally {
      await shutdown([a, b, c]);
    }
  });

  test('three compactors on real timers compact once per interval in total; a dead one is replaced', async () => {
    const intervalMs = 200;
    const servers = [0, 1, 2].map((i) => apiserver(i, intervalMs));
    const started = Date.now();
    let survivors = servers;
    try {
      await sleep(2000);
      const beforeKill = servers.flatMap((s) => s.compacted);
      expect(beforeKill.length).toBeGreaterThanOrEqual(2);
      // kill the one that compacted last (the one holding the turn)
      const holder = servers.find((s) =>
        s.compacted.some((x) => x.at === Math.max(...beforeKill.map((y) => y.at))),
      )!;
      await shutdown([holder]);
      const killed = Date.now();
      survivors = servers.filter((s) => s !== holder);
      await sleep(1200);
      await shutdown(survivors);
      const elapsed = Date.now() - started;

      const all = servers.flatMap((s) => s.compacted).sort((x, y) => x.at - y.at);
      const key = await compactKey();
      // every turn taken bumped the version; every turn but the very first compacted
      expect(all.length).toBe(key.version - 1);
      // turns are at least one interval apart: uncoordinated, three compactors would take ~3x as many
      expect(key.version).toBeLessThanOrEqual(Math.floor(elapsed / intervalMs) + 1);
      expect(key.version).toBeGreaterThanOrEqual(5);
      // compaction revisions only move forward, and etcd is compacted to the last one
      const revisions = all.map((x) => x.revision);
      expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
      expect(new Set(revisions).size).toBe(revisions.length);
      expect(key.value).toBe(String(revisions.at(-1)));
      expect(await admin.compactedRevision()).toBe(revisions.at(-1));
      // the survivors kept compacting after the holder died
      expect(
        survivors.flatMap((s) => s.compacted).filter((x) => x.at > killed).length,
      ).toBeGreaterThanOrEqual(2);
      expect(servers.flatMap((s) => s.errors)).toEqual([]);
    } finally {
      await shutdown(survivors);
    }
  });

  test('EtcdStorage compacts through the coordinated compactor', async () => {
    const intervalMs = 200;
    const started = Date.now();
    const stores = [0, 1].map(
      () => new EtcdStorage({ endpoints: cluster.endpoints, compactionIntervalMs: intervalMs }),
    );
    try {
      const before = await admin.currentRevision();
      await sleep(1300);
      for (const store of stores) await store.close();
      const key = await compactKey();
      expect(key.version).toBeGreaterThanOrEqual(2);
      expect(key.version).toBeLessThanOrEqual(Math.floor((Date.now() - started) / intervalMs) + 1);
      expect(Number(key.value)).toBeGreaterThan(before);
      expect(await admin.compactedRevision()).toBe(Number(key.value));
    } finally {
      for (const store of stores) await store.close();
    }
  });
});
