import type Database from 'better-sqlite3';

/** The current state's table, `kv` unless named (see {@link storeValuesOnce}). */
const kvTable = (name = 'kv') => `
CREATE TABLE IF NOT EXISTS ${name} (
  key BLOB PRIMARY KEY,
  create_rev INTEGER NOT NULL,
  mod_rev INTEGER NOT NULL
) WITHOUT ROWID;`;

/**
 * Tables of the embedded store.
 *
 * - `kv`: the current state, one row per live key. Its value is the `history` row at `mod_rev`: each
 *   value is stored once, so a write adds its bytes to the log once, and the current state's pages,
 *   a few dozen bytes per key, stay few.
 * - `history`: one row per revision (the write that produced it). A delete row has no value; its
 *   last value is the row at `prev_rev`. `prev_rev` is the key's modRevision before the write (0 for
 *   a create). Rows are only ever added at the end, in revision order, and read by revision: a
 *   read at a past revision R takes the current row of each key not written since R, and for a key
 *   written since, the row its first write after R replaced (see `list` in sqlite-storage.ts).
 *   There is no index by key: its entries would go to a page per key written, which under a steady
 *   write load made up most of what each commit wrote to the log.
 * - `meta`: `compacted` (reads below it fail) and `purged` (history rows up to it that compaction has
 *   already removed). Compaction removes only rows a later row superseded and delete rows, never a
 *   live key's current row.
 * - `expiry`: keys written with a time to live, with the revision of that write and when it expires
 *   (ms since the epoch). A row whose key was written again or deleted since is stale and dropped
 *   when it comes due.
 *
 * Keys are stored as BLOBs of their UTF-8 bytes so that ordering and prefix ranges compare bytes,
 * the same way etcd orders keys.
 */
export const SCHEMA = `${kvTable()}
CREATE TABLE IF NOT EXISTS history (
  rev INTEGER PRIMARY KEY,
  key BLOB NOT NULL,
  deleted INTEGER NOT NULL,
  value BLOB,
  create_rev INTEGER NOT NULL,
  prev_rev INTEGER NOT NULL
);
DROP INDEX IF EXISTS history_key_rev;
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (name, value) VALUES ('compacted', 0), ('purged', 0);
CREATE TABLE IF NOT EXISTS expiry (
  key BLOB PRIMARY KEY,
  mod_rev INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS expiry_at ON expiry (expires_at);
`;

export type Synchronous = 'NORMAL' | 'FULL';

/**
 * Opens the database for the store.
 *
 * WAL journal: readers never block the writer and a commit is one append to the log.
 *
 * `synchronous = NORMAL` (the default) is what durability against a process crash needs: in WAL
 * mode a commit has written its frames to the log file with write(2) before it returns, so they
 * sit in the operating system's page cache, which survives the death of the process (kill -9,
 * out-of-memory kill, a crash). A write acknowledged by the store is therefore never lost when the
 * process dies, and recovery replays the log up to the last complete commit, so the store reopens
 * consistent. What NORMAL gives up is the fsync per commit, i.e. the last commits before a power
 * loss or kernel crash; choose `FULL` to cover that too, at a large cost in write rate.
 */
export function configure(db: Database.Database, synchronous: Synchronous): void {
  // 16 KiB pages (for a new file; an existing one keeps its size): a key's row of a few KiB stays in
  // its b-tree page instead of spilling into overflow pages, so writes and range reads touch fewer pages
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  db.exec(SCHEMA);
  storeValuesOnce(db);
  // SQLite's own checkpoint, in the commit that makes the log reach about 16 MiB: stores that
  // checkpoint from a thread of their own (WalCheckpointer) turn it off
  db.pragma(`wal_autocheckpoint = ${walRestartFrames(db)}`);
  // a log that grew past this in a burst is cut back to it when it restarts
  db.pragma(`journal_size_limit = ${walKeptBytes}`);
}

/** The size at which the write-ahead log is checkpointed and restarted from its beginning. */
const walRestartBytes = 16 * 1024 * 1024;
/** The log file is cut back to this size when the log restarts. */
const walKeptBytes = 2 * walRestartBytes;
/**
 * A log file past this size is a log that grew faster than the checkpoints kept up with (it can only
 * outgrow {@link walKeptBytes} by growing): the store holds its writes until the log restarts.
 */
export const walHoldBytes = 3 * walRestartBytes;

/** {@link walRestartBytes} in log frames (one page each) of this database. */
export function walRestartFrames(db: Database.Database): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return Math.max(1, Math.floor(walRestartBytes / pageSize));
}

/**
 * Moves a store written when `kv` kept a copy of each current value (a `value` column) to values
 * stored once: the current rows keep their key and revisions and read their value from `history`.
 * A live key whose history row is missing gets it back from its old copy first, so no value is lost.
 * One transaction: a store is either migrated or left as it was.
 */
function storeValuesOnce(db: Database.Database): void {
  const columns = db.pragma('table_info(kv)') as { name: string }[];
  if (!columns.some((c) => c.name === 'value')) return;
  db.transaction(() => {
    db.exec(`
      INSERT INTO history (rev, key, deleted, value, create_rev, prev_rev)
        SELECT kv.mod_rev, kv.key, 0, kv.value, kv.create_rev, 0 FROM kv
        WHERE NOT EXISTS (SELECT 1 FROM history h WHERE h.rev = kv.mod_rev);
      ${kvTable('kv_current')}
      INSERT INTO kv_current (key, create_rev, mod_rev) SELECT key, create_rev, mod_rev FROM kv;
      DROP TABLE kv;
      ALTER TABLE kv_current RENAME TO kv;
    `);
  })();
}
