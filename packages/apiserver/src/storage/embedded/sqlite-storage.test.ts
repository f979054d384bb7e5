import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '../testing/temp-dir';
import { SqliteStorage } from './sqlite-storage';

const text = (s: string) => Buffer.from(s);

describe('embedded store', () => {
  const dir = tempDir('sqlite');
  let n = 0;
  const file = () => join(dir.path, `store-${++n}.db`);
  afterAll(() => dir.remove());

  /** Rows in the history table, read through a separate connection. */
  const historyRows = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM history').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  test('uses WAL and keeps state, revisions and compaction across reopening', async () => {
    const path = file();
    const store = new SqliteStorage(path, { compactionIntervalMs: 0 });
    await store.create('/registry/a', text('1'));
    const b = await store.create('/registry/b', text('2'));
    await store.update('/registry/a', text('3'));
    await store.compact(b.modRevision);
    const deleted = await store.delete('/registry/b');
    await store.close();

    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();

    const reopened = new SqliteStorage(path, { compactionIntervalMs: 0 });
    try {
      expect(await reopened.currentRevision()).toBe(deleted.modRevision);
      expect(await reopened.compactedRevision()).toBe(b.modRevision);
      expect((await reopened.list('/registry/')).items.map((kv) => kv.value.toString())).toEqual(['3']);
      expect((await reopened.list('/registry/', { revision: b.modRevision })).items.length).toBe(2);
      expect((await reopened.create('/registry/c', text('4'))).modRevision).toBe(deleted.modRevision + 1);
    } finally {
      await reopened.close();
    }
  });

  test('a new file gets 16 KiB pages; a file made with other pages keeps them and works as before', async () => {
    const pageSize = (path: string) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.pragma('page_size', { simple: true });
      } finally {
        db.close();
      }
    };
    const fresh = file();
    const store = new SqliteStorage(fresh, { compactionIntervalMs: 0 });
    await store.create('/registry/a', Buffer.alloc(6000, 'a'));
    await store.close();
    expect(pageSize(fresh)).toBe(16384);

    const old = file();
    const made = new Database(old);
    made.pragma('page_size = 4096');
    made.exec('CREATE TABLE t (x); DROP TABLE t;');
    made.close();
    const reopened = new SqliteStorage(old, { compactionIntervalMs: 0 });
    const big = await reopened.create('/registry/big', Buffer.alloc(6000, 'b'));
    await reopened.create('/registry/small', text('s'));
    expect(
      (await reopened.list('/registry/', { revision: big.modRevision })).items.map((kv) => kv.key),
    ).toEqual(['/registry/big']);
    expect((await reopened.get('/registry/big'))?.value.length).toBe(6000);
    await reopened.close();
    expect(pageSize(old)).toBe(4096);
  });

  test('a store that kept a copy of each current value in kv opens with values stored once, losing nothing', async () => {
    const path = file();
    const old = new Database(path);
    old.exec(`
      CREATE TABLE kv (key BLOB PRIMARY KEY, value BLOB NOT NULL, create_rev INTEGER NOT NULL,
        mod_rev INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE history (rev INTEGER PRIMARY KEY, key BLOB NOT NULL, deleted INTEGER NOT NULL,
        value BLOB, create_rev INTEGER NOT NULL, prev_rev INTEGER NOT NULL);
      CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO meta (name, value) VALUES ('compacted', 0), ('purged', 0);
    `);
    const kv = old.prepare('INSERT INTO kv VALUES (?, ?, ?, ?)');
    const history = old.prepare('INSERT INTO history VALUES (?, ?, ?, ?, ?, ?)');
    const a = text('/registry/a');
    const b = text('/registry/b');
    const c = text('/registry/c');
    history.run(1, a, 0, text('a1'), 1, 0);
    history.run(2, b, 0, text('b2'), 2, 0);
    history.run(3, a, 0, text('a3'), 1, 1);
    history.run(4, b, 1, null, 2, 2);
    kv.run(a, text('a3'), 1, 3);
    // a live key whose history row is missing: its copy in kv is the only one
    kv.run(c, text('c5'), 5, 5);
    old.close();

    const store = new SqliteStorage(path, { compactionIntervalMs: 0 });
    try {
      const values = async (revision?: number) =>
        (await store.list('/registry/', { revision })).items.map((i) => [
          i.key,
          i.value.toString(),
          i.modRevision,
        ]);
      expect(await values()).toEqual([
        ['/registry/a', 'a3', 3],
        ['/registry/c', 'c5', 5],
      ]);
      expect(await values(2)).toEqual([
        ['/registry/a', 'a1', 1],
        ['/registry/b', 'b2', 2],
      ]);
      expect((await store.get('/registry/c'))?.createRevision).toBe(5);
      const updated = await store.update('/registry/a', text('a6'), 3);
      expect(updated.modRevision).toBe(6);
      expect((await store.get('/registry/a'))?.value.toString()).toBe('a6');
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    try {
      const columns = (db.pragma('table_info(kv)') as { name: string }[]).map((col) => col.name);
      expect(columns).toEqual(['key', 'create_rev', 'mod_rev']);
    } finally {
      db.close();
    }
  });

  test('compaction removes unreadable history but keeps the state at the compacted revision', async () => {
    const path = file();
    const store = new SqliteStorage(path, { compactionIntervalMs: 0, compactionBatchRevisions: 7 });
    try {
      for (let i = 0; i < 20; i++) await store.create(`/registry/k${i}`, text('0'));
      for (let round = 1; round <= 10; round++) {
        for (let i = 0; i < 20; i++) await store.update(`/registry/k${i}`, text(String(round)));
      }
      for (let i = 0; i < 5; i++) await store.delete(`/registry/k${i}`);
      const mark = await store.currentRevision();
      const before = await store.list('/registry/', { revision: mark });
      expect(historyRows(path)).toBe(225);

      await store.compact(mark);
      // Left: one row per live key (15); every update and delete at or before the mark is gone.
      expect(historyRows(path)).toBe(15);
      expect(await store.list('/registry/', { revision: mark })).toEqual(before);

      await store.update('/registry/k9', text('new'));
      await store.compact(mark + 1);
      expect(historyRows(path)).toBe(15);
      expect((await store.get('/registry/k9'))?.value.toString()).toBe('new');
    } finally {
      await store.close();
    }
  });

  test('automatic compaction keeps the history bounded under a steady write load', async () => {
    const path = file();
    const store = new SqliteStorage(path, {
      historyRetentionMs: 30,
      compactionIntervalMs: 10,
      maxHistoryRevisions: 1000,
    });
    try {
      await store.create('/registry/counter', text('0'));
      const deadline = Date.now() + 400;
      for (let i = 1; Date.now() < deadline; i++) {
        await store.update('/registry/counter', text(String(i)));
        if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await new Promise((resolve) => setTimeout(resolve, 80));
      const current = await store.currentRevision();
      const compacted = await store.compactedRevision();
      expect(compacted).toBeGreaterThan(0);
      expect(current - compacted).toBeLessThanOrEqual(1000 + current / 2);
      expect(historyRows(path)).toBeLessThanOrEqual(current - compacted + 1);
      expect(historyRows(path)).toBeLessThan(current);
    } finally {
      await store.close();
    }
  });

  test('a callback that writes does not reorder delivery to other watchers', async () => {
    const store = new SqliteStorage(':memory:', { compactionIntervalMs: 0 });
    try {
      const seenA: number[] = [];
      const seenB: number[] = [];
      const a = await store.watch(
        '/registry/',
        0,
        (e) => {
          seenA.push(e.modRevision);
          if (e.key === '/registry/x') void store.create('/registry/y', text('from callback'));
        },
        (e) => {
          throw e;
        },
      );
      const b = await store.watch(
        '/registry/',
        0,
        (e) => seenB.push(e.modRevision),
        (e) => {
          throw e;
        },
      );
      await store.create('/registry/x', text('1'));
      await store.create('/registry/z', text('2'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seenA).toEqual([1, 2, 3]);
      expect(seenB).toEqual([1, 2, 3]);
      a.stop();
      b.stop();
    } finally {
      await store.close();
    }
  });

  test('a turn of many writes commits every 16 as it goes, in the order they were made', async () => {
    const store = new SqliteStorage(':memory:', { compactionIntervalMs: 0 });
    try {
      const seen: number[] = [];
      const watch = await store.watch(
        '/registry/',
        0,
        (e) => seen.push(e.modRevision),
        (e) => {
          throw e;
        },
      );
      const writes = Array.from({ length: 20 }, (_, i) => store.create(`/registry/w-${i}`, text('w')));
      // before the turn ends: the first 16 are committed and delivered, the other 4 wait
      const during = { revision: await store.currentRevision(), seen: [...seen] };
      expect(during).toEqual({ revision: 16, seen: Array.from({ length: 16 }, (_, i) => i + 1) });
      expect((await Promise.all(writes)).map((kv) => kv.modRevision)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      watch.stop();
    } finally {
      await store.close();
    }
  });

  test('a closed store refuses calls and ends its watches', async () => {
    const store = new SqliteStorage(':memory:', { compactionIntervalMs: 0 });
    const errors: Error[] = [];
    await store.watch(
      '/',
      0,
      () => undefined,
      (e) => errors.push(e),
    );
    await store.close();
    await expect(store.get('/x')).rejects.toMatchObject({ code: 'Unavailable' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toMatchObject([{ code: 'Unavailable' }]);
  });
});
