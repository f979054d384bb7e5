import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../testing/temp-dir';
import { SqliteStorage } from './sqlite-storage';
import { WalCheckpointer } from './wal-checkpointer';

/** A value the size of a stored Pod. */
const value = Buffer.from(JSON.stringify({ spec: 'x'.repeat(2000) }));
const MiB = 1024 * 1024;
const size = (path: string) => statSync(path).size;

/** Creates `count` keys, `batch` at a time (one commit per batch), and returns their names. */
async function fill(store: SqliteStorage, prefix: string, count: number, batch = 8): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i += batch) {
    const writes: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(count, i + batch); j++) {
      const key = `/registry/pods/ns/${prefix}-${j}`;
      keys.push(key);
      writes.push(store.create(key, value));
    }
    await Promise.all(writes);
  }
  return keys;
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('write-ahead log checkpoints from a thread of their own', () => {
  const dir = tempDir('wal');
  let n = 0;
  const file = () => join(dir.path, `store-${++n}.db`);
  afterAll(() => dir.remove());

  const autocheckpoint = (store: SqliteStorage) =>
    (store as unknown as { db: Database.Database }).db.pragma('wal_autocheckpoint', { simple: true });

  test('a store written little keeps SQLite checkpointing in its commits (no thread)', async () => {
    const store = new SqliteStorage(file(), { compactionIntervalMs: 0 });
    try {
      await fill(store, 'idle', 200);
      expect(autocheckpoint(store)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  test('once the log passes 4 MiB and the thread has started, the writing connection stops checkpointing and the thread copies the log into the database', async () => {
    const path = file();
    const store = new SqliteStorage(path, { compactionIntervalMs: 0 });
    try {
      const before = size(path);
      await fill(store, 'a', 800);
      await until(() => autocheckpoint(store) === 0);
      // nothing but the thread runs now: the database file receives the written pages
      await until(() => size(path) > before + 800 * value.length);
    } finally {
      await store.close();
    }
  });

  test('under steady writes the log restarts and stays bounded, and nothing written is lost', async () => {
    const path = file();
    const store = new SqliteStorage(path, { compactionIntervalMs: 0 });
    let keys: string[];
    try {
      // several times the 16 MiB restart size of log, written without pause
      keys = await fill(store, 'b', 6000);
      expect(size(`${path}-wal`)).toBeLessThanOrEqual(64 * MiB);
    } finally {
      await store.close();
    }
    const reopened = new SqliteStorage(path, { compactionIntervalMs: 0 });
    try {
      const listed = await reopened.list('/registry/pods/ns/');
      expect(listed.items.map((kv) => kv.key).sort()).toEqual([...keys].sort());
      expect(listed.items.every((kv) => Buffer.compare(Buffer.from(kv.value), value) === 0)).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  test('inline checkpoints (SQLite in the commits) remain available', async () => {
    const path = file();
    const store = new SqliteStorage(path, { compactionIntervalMs: 0, checkpoints: 'inline' });
    try {
      await fill(store, 'c', 2000);
      expect(autocheckpoint(store)).toBeGreaterThan(0);
      expect((await store.list('/registry/pods/ns/')).items).toHaveLength(2000);
    } finally {
      await store.close();
    }
  });

  test('urged, the thread checkpoints at once with the writes held, and then releases them', async () => {
    const path = file();
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (v BLOB)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 200; i++) insert.run(value);
    const events: string[] = [];
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    // a restart size the log never reaches: only the urge makes the thread hold the writes
    const checkpointer = new WalCheckpointer(
      path,
      {
        started,
        hold: () => events.push('hold'),
        release: () => events.push('release'),
        fallBack: () => events.push('fallBack'),
      },
      { restartFrames: 1_000_000, activeMs: 60_000, idleMs: 60_000 },
    );
    try {
      await ready;
      checkpointer.checkpointNow();
      expect(events).toEqual(['hold']);
      await until(() => events.includes('release'));
      // a checkpoint that copied the whole log: the next write starts the log from its beginning
      const framesBefore = (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
      insert.run(value);
      const framesAfter = (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
      expect(framesAfter).toBeLessThan(framesBefore);
      expect(events).not.toContain('fallBack');
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  test('a thread that cannot open the database makes the store fall back to checkpointing itself', async () => {
    const fallBack = jest.fn();
    // a directory is no database file: the thread fails at once
    const checkpointer = new WalCheckpointer(
      dir.path,
      { started: jest.fn(), hold: jest.fn(), release: jest.fn(), fallBack },
      { restartFrames: 1024 },
    );
    await until(() => fallBack.mock.calls.length > 0);
    expect((fallBack.mock.calls[0]![0] as Error).message).toMatch(/SQLITE_CANTOPEN/);
    await checkpointer.stop();
  });
});
