import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { prefixEnd, rangeStart } from '../key-range';
import { PeriodicCompactor } from '../periodic-compactor';
import {
  storedValue,
  timeToLive,
  type KV,
  type ListOptions,
  type ListResult,
  type Storage,
  type WatchEvent,
  type WatchHandle,
  type WatchOptions,
  type WriteOptions,
} from '../storage';
import { StorageError } from '../storage-error';
import { WatchHub, failedWatch } from '../watch-hub';
import { FirstWritesAfter, type FirstWrite } from './first-writes-after';
import { configure, walHoldBytes, walRestartFrames, type Synchronous } from './schema';
import { WalCheckpointer } from './wal-checkpointer';

export interface SqliteStorageOptions {
  /** See `configure` in schema.ts for why NORMAL is enough against process crashes. */
  synchronous?: Synchronous;
  /** Keep at least this much watch/list history. Default 5 minutes. */
  historyRetentionMs?: number;
  /** Keep at most this many revisions of history, whatever their age. Default 2,000,000. */
  maxHistoryRevisions?: number;
  /** How often automatic compaction runs. Default 1 minute; 0 disables automatic compaction. */
  compactionIntervalMs?: number;
  /** Revisions purged per step of a compaction; writes run between steps. Default 5,000. */
  compactionBatchRevisions?: number;
  /**
   * Where the write-ahead log is checkpointed: `thread` (the default for a file), from a thread of
   * its own (see WalCheckpointer) once the log has grown past 4 MiB, by SQLite until then;
   * `inline`, always by SQLite in the commit that fills the log, which stalls that commit and
   * everything else on the thread for the copy and its fsyncs.
   */
  checkpoints?: 'thread' | 'inline';
  /** How often keys written with a time to live are looked at for expiry. Default 1 second. */
  expirySweepMs?: number;
}

interface Applied {
  kv: KV;
  event: WatchEvent;
}

interface PendingWrite {
  apply: (revision: number) => Applied;
  resolve: (kv: KV) => void;
  reject: (error: Error) => void;
}

interface KvRow {
  key: Buffer;
  value: Buffer;
  create_rev: number;
  mod_rev: number;
}

interface HistoryRow {
  rev: number;
  key: Buffer;
  deleted: number;
  value: Buffer | null;
  create_rev: number;
  prev_value: Buffer | null;
}

/** The current rows, `k`, each with its value's history row, `h` (from kv's key, then history's revision). */
const currentRows = 'kv k CROSS JOIN history h ON h.rev = k.mod_rev';

/** Lists at a past revision whose first writes after it are remembered (see FirstWritesAfter). */
const pastListsRemembered = 4;
/** The most keys written since a past revision that a remembered list keeps (about 150 bytes each). */
const pastListKeysRemembered = 100_000;

/**
 * The most writes a commit waits for. The writes queued in one turn of the event loop share a
 * commit made at its end; when a turn serves more writes than this, the ones queued so far commit
 * at once and their answers leave while the turn goes on. Their clients then send their next
 * requests while the rest of the turn is served, instead of all at once after it, and the event loop
 * does not idle between turns. Measured with 32 clients patching Deployments (bench/apply.js,
 * alternating runs): about 10% more strategic merge patches per second at 16 than with one commit
 * per turn; commits of 4 or 8 writes did worse than either, each commit costing more than the idle
 * time it saves.
 */
const maxCommitWrites = 16;

/** Commits between two looks at the log's size. */
const logCheckCommits = 16;
/** The log size from which checkpoints move to their thread. */
const threadCheckpointsFromBytes = 4 * 1024 * 1024;

/** Upper bound for "no range end": 0xff never occurs in UTF-8, so it sorts after every key. */
const KEYSPACE_END = Buffer.from([0xff]);

/**
 * The embedded backend: SQLite on local disk through better-sqlite3. One process owns the file.
 * Each write changes the current state and appends one history row; the writes issued in one turn
 * of the event loop share a transaction (group commit) and are acknowledged after it committed.
 * Watch events are pushed to in-process watchers right after the commit, and reads at past
 * revisions come from the history table. Automatic compaction keeps the history bounded (see
 * {@link SqliteStorageOptions}). A watch replays its backlog from memory, so a watch from far back
 * in a large history costs memory in proportion.
 */
export class SqliteStorage implements Storage {
  private readonly db: Database.Database;
  private readonly hub = new WatchHub();
  private readonly compactor: PeriodicCompactor | undefined;
  private readonly batchRevisions: number;
  private revision: number;
  private compacted: number;
  private purging: Promise<void> = Promise.resolve();
  private readonly batchTx: (run: () => void) => void;
  private queue: PendingWrite[] = [];
  /** Set while the checkpointer holds writes (they wait in the queue). */
  private held = false;
  /**
   * The log of a store whose checkpoints move to a thread once it is written to in earnest (until
   * then SQLite checkpoints in the commits: an idle server keeps no thread).
   */
  private readonly threadCheckpointed: string | undefined;
  private checkpointer: WalCheckpointer | undefined;
  private commitsSinceLogCheck = 0;
  private readonly purgeTx: (lo: number, hi: number) => void;
  private closed = false;
  /** The first writes after a past revision of the lists read there, the most recently read last. */
  private pastLists: FirstWritesAfter[] = [];

  private readonly stmt: {
    get: Database.Statement<[Buffer], KvRow>;
    insertKv: Database.Statement<[Buffer, number, number]>;
    updateKv: Database.Statement<[number, Buffer]>;
    deleteKv: Database.Statement<[Buffer]>;
    insertHistory: Database.Statement<[number, Buffer, number, Buffer | null, number, number]>;
    changedAfter: Database.Statement<[number, Buffer, Buffer], { rev: number }>;
    listUnwrittenSince: Database.Statement<[Buffer, Buffer, number, number], KvRow>;
    listUnwrittenSinceKeys: Database.Statement<[Buffer, Buffer, number, number], KvRow>;
    countUnwrittenSince: Database.Statement<[Buffer, Buffer, number], { n: number }>;
    firstWrites: Database.Statement<[number, number, Buffer, Buffer], FirstWrite>;
    valueAt: Database.Statement<[number], { value: Buffer }>;
    since: Database.Statement<[number, Buffer, Buffer], HistoryRow>;
    setMeta: Database.Statement<[number, string]>;
    getMeta: Database.Statement<[string], { value: number }>;
    purgeSuperseded: Database.Statement<[number, number]>;
    purgeDeletes: Database.Statement<[number, number]>;
    setExpiry: Database.Statement<[Buffer, number, number]>;
    dueExpiry: Database.Statement<[number], { key: Buffer; mod_rev: number }>;
    dropExpiry: Database.Statement<[Buffer, number]>;
    anyExpiry: Database.Statement<[], { one: number }>;
  };
  private readonly expirySweepMs: number;
  private expirySweeper: NodeJS.Timeout | undefined;

  /** `path` is a file path, or `:memory:` for a throwaway store. */
  constructor(path: string, options: SqliteStorageOptions = {}) {
    this.db = new Database(path);
    configure(this.db, options.synchronous ?? 'NORMAL');
    this.batchRevisions = options.compactionBatchRevisions ?? 5000;
    this.stmt = {
      get: this.db.prepare(
        `SELECT k.key, h.value, k.create_rev, k.mod_rev FROM ${currentRows} WHERE k.key = ?`,
      ),
      insertKv: this.db.prepare('INSERT INTO kv (key, create_rev, mod_rev) VALUES (?, ?, ?)'),
      updateKv: this.db.prepare('UPDATE kv SET mod_rev = ? WHERE key = ?'),
      deleteKv: this.db.prepare('DELETE FROM kv WHERE key = ?'),
      insertHistory: this.db.prepare(
        'INSERT INTO history (rev, key, deleted, value, create_rev, prev_rev) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      // walks the revisions after the given one
      changedAfter: this.db.prepare(
        'SELECT rev FROM history WHERE rev > ? AND key >= ? AND key < ? ORDER BY rev LIMIT 1',
      ),
      // the keys of a range not written since a revision (every key, at the current revision): their
      // current rows are their state then
      listUnwrittenSince: this.db.prepare(
        `SELECT k.key, h.value, k.create_rev, k.mod_rev FROM ${currentRows}
         WHERE k.key >= ? AND k.key < ? AND k.mod_rev <= ? ORDER BY k.key LIMIT ?`,
      ),
      listUnwrittenSinceKeys: this.db.prepare(
        `SELECT key, X'' AS value, create_rev, mod_rev FROM kv
         WHERE key >= ? AND key < ? AND mod_rev <= ? ORDER BY key LIMIT ?`,
      ),
      countUnwrittenSince: this.db.prepare(
        'SELECT COUNT(*) AS n FROM kv WHERE key >= ? AND key < ? AND mod_rev <= ?',
      ),
      // each key's first write among the writes in a span of revisions, read by revision
      firstWrites: this.db.prepare(`
        SELECT c.key AS key, f.prev_rev AS prevRev, f.create_rev AS createRev FROM (
            SELECT key, MIN(rev) AS first FROM history
            WHERE rev > ? AND rev <= ? AND key >= ? AND key < ? GROUP BY key) c
          CROSS JOIN history f ON f.rev = c.first`),
      valueAt: this.db.prepare('SELECT value FROM history WHERE rev = ?'),
      since: this.db.prepare(`
        SELECT h.rev, h.key, h.deleted, h.value, h.create_rev, p.value AS prev_value
        FROM history h LEFT JOIN history p ON h.prev_rev > 0 AND p.rev = h.prev_rev
        WHERE h.rev > ? AND h.key >= ? AND h.key < ? ORDER BY h.rev`),
      setMeta: this.db.prepare('UPDATE meta SET value = ? WHERE name = ?'),
      getMeta: this.db.prepare('SELECT value FROM meta WHERE name = ?'),
      // Once a revision is compacted, the rows it superseded and the delete rows up to it can no
      // longer be read; each key's newest live row at the compacted revision stays (it is the
      // state there). Walking the newly compacted revisions once finds all of them.
      purgeSuperseded: this.db.prepare(`
        DELETE FROM history WHERE rev IN (
          SELECT prev_rev FROM history WHERE rev > ? AND rev <= ? AND prev_rev > 0)`),
      purgeDeletes: this.db.prepare('DELETE FROM history WHERE rev > ? AND rev <= ? AND deleted = 1'),
      setExpiry: this.db.prepare('INSERT OR REPLACE INTO expiry (key, mod_rev, expires_at) VALUES (?, ?, ?)'),
      dueExpiry: this.db.prepare(
        'SELECT key, mod_rev FROM expiry WHERE expires_at <= ? ORDER BY expires_at LIMIT 1000',
      ),
      dropExpiry: this.db.prepare('DELETE FROM expiry WHERE key = ? AND mod_rev = ?'),
      anyExpiry: this.db.prepare('SELECT 1 AS one FROM expiry LIMIT 1'),
    };
    this.expirySweepMs = options.expirySweepMs ?? 1000;
    // Writes queued in the same turn of the event loop commit as one SQLite transaction (group
    // commit); each write's current-state change and history row are always in the same one.
    this.batchTx = this.db.transaction((run: () => void) => run());
    this.purgeTx = this.db.transaction((lo: number, hi: number) => {
      this.stmt.purgeSuperseded.run(lo, hi);
      this.stmt.purgeDeletes.run(lo, hi);
      this.stmt.setMeta.run(hi, 'purged');
    });
    if (path !== ':memory:' && path !== '' && (options.checkpoints ?? 'thread') === 'thread') {
      this.threadCheckpointed = path;
    }
    this.compacted = this.meta('compacted');
    const maxRev =
      (this.db.prepare('SELECT MAX(rev) AS r FROM history').get() as { r: number | null }).r ?? 0;
    this.revision = Math.max(maxRev, this.compacted);
    if (this.meta('purged') < this.compacted) this.startPurge();
    if (this.stmt.anyExpiry.get()) this.sweepExpiries();
    const interval = options.compactionIntervalMs ?? 60_000;
    if (interval > 0) {
      this.compactor = new PeriodicCompactor(this, {
        intervalMs: interval,
        retentionMs: options.historyRetentionMs ?? 5 * 60_000,
        maxRevisions: options.maxHistoryRevisions ?? 2_000_000,
      });
    }
  }

  async get(key: string): Promise<KV | undefined> {
    this.assertOpen();
    const row = this.stmt.get.get(Buffer.from(key));
    return row && toKV(row);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const revision = options.revision || this.revision;
    if (revision > this.revision) throw StorageError.futureRevision(revision, this.revision);
    if (revision < this.compacted) throw StorageError.compacted(revision, this.compacted);
    const start = rangeStart(prefix, options.startKey);
    const end = prefixEnd(prefix) ?? KEYSPACE_END;
    const limit = options.limit && options.limit > 0 ? options.limit : -1;
    const fetch = limit > 0 ? limit + 1 : -1;
    // a past revision after which nothing in the range changed reads like the current state
    const atCurrent =
      revision === this.revision || this.stmt.changedAfter.get(revision, start, end) === undefined;
    const unwritten = (
      options.keysOnly ? this.stmt.listUnwrittenSinceKeys : this.stmt.listUnwrittenSince
    ).all(start, end, revision, fetch);
    // at a past revision, the keys written since then as well, with their rows then
    const since = atCurrent
      ? undefined
      : this.firstWritesAfter(revision, rangeStart(prefix, undefined), end).existedFrom(start);
    const rows = since ? this.merged(unwritten, since, fetch, options.keysOnly === true) : unwritten;
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const remaining = more
      ? this.stmt.countUnwrittenSince.get(start, end, revision)!.n +
        (since ? since.writes.length - since.first : 0) -
        rows.length
      : 0;
    return { items: rows.map(toKV), revision, more, remaining };
  }

  /**
   * The rows of a range as they were at a past revision, in key order, up to `fetch` (-1: all): the
   * keys not written since, with their current rows (`unwritten`), merged with the keys written
   * since that existed then, each with the row its first write after the revision replaced
   * (`since.writes` from `since.first`). Compaction never removes those rows: a row is removed only
   * once a write at or below the compacted revision replaced it.
   */
  private merged(
    unwritten: readonly KvRow[],
    since: { writes: readonly FirstWrite[]; first: number },
    fetch: number,
    keysOnly: boolean,
  ): KvRow[] {
    const rows: KvRow[] = [];
    let i = 0;
    let j = since.first;
    while (fetch < 0 || rows.length < fetch) {
      const row = unwritten[i];
      const write = since.writes[j];
      if (!write || (row && Buffer.compare(row.key, write.key) < 0)) {
        if (!row) break;
        rows.push(row);
        i++;
        continue;
      }
      const value = keysOnly ? Buffer.alloc(0) : this.stmt.valueAt.get(write.prevRev)!.value;
      rows.push({ key: write.key, value, create_rev: write.createRev, mod_rev: write.prevRev });
      j++;
    }
    return rows;
  }

  /**
   * The first writes after `revision` of the keys in [start, end), remembered for the lists at that
   * revision (a few, the most recently read), and brought up to the current revision.
   */
  private firstWritesAfter(revision: number, start: Buffer, end: Buffer): FirstWritesAfter {
    const at = this.pastLists.findIndex((m) => m.covers(revision, start, end));
    const remembered =
      at >= 0 ? this.pastLists.splice(at, 1)[0]! : new FirstWritesAfter(revision, start, end);
    this.pastLists.push(remembered);
    if (this.pastLists.length > pastListsRemembered) this.pastLists.shift();
    if (remembered.scannedTo < this.revision) {
      remembered.add(
        this.stmt.firstWrites.all(remembered.scannedTo, this.revision, start, end),
        this.revision,
      );
    }
    // too large to keep: this read uses it, the next one reads the writes again
    if (remembered.size > pastListKeysRemembered) this.pastLists.pop();
    return remembered;
  }

  create(key: string, value: Uint8Array, options?: WriteOptions): Promise<KV> {
    const k = Buffer.from(key);
    const v = storedValue(value);
    const expire = this.expiring(options);
    return this.write((rev) => {
      try {
        this.stmt.insertKv.run(k, rev, rev);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
          throw StorageError.keyExists(key);
        throw error;
      }
      this.stmt.insertHistory.run(rev, k, 0, v, rev, 0);
      expire?.(k, rev);
      const kv = { key, value: v, modRevision: rev, createRevision: rev };
      return { kv, event: { type: 'put', ...kv } };
    });
  }

  update(key: string, value: Uint8Array, expectedModRevision?: number, options?: WriteOptions): Promise<KV> {
    const k = Buffer.from(key);
    const v = storedValue(value);
    const expire = this.expiring(options);
    return this.write((rev) => {
      const prev = this.checked(k, key, expectedModRevision);
      this.stmt.updateKv.run(rev, k);
      this.stmt.insertHistory.run(rev, k, 0, v, prev.create_rev, prev.mod_rev);
      expire?.(k, rev);
      const kv = { key, value: v, modRevision: rev, createRevision: prev.create_rev };
      return { kv, event: { type: 'put', ...kv, prevValue: prev.value } };
    });
  }

  delete(key: string, expectedModRevision?: number): Promise<KV> {
    const k = Buffer.from(key);
    return this.write((rev) => {
      const prev = this.checked(k, key, expectedModRevision);
      this.stmt.deleteKv.run(k);
      this.stmt.insertHistory.run(rev, k, 1, null, prev.create_rev, prev.mod_rev);
      const kv = { key, value: prev.value, modRevision: rev, createRevision: prev.create_rev };
      return { kv, event: { type: 'delete', ...kv, prevValue: prev.value } };
    });
  }

  async watch(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    options: WatchOptions = {},
  ): Promise<WatchHandle> {
    this.assertOpen();
    if (fromRevision > 0 && fromRevision < this.compacted) {
      return failedWatch(onError, StorageError.compacted(fromRevision, this.compacted));
    }
    const from = fromRevision > 0 ? fromRevision : this.revision;
    // Reading the backlog and registering happen in one synchronous step: no commit can fall
    // between them, so the watcher neither misses nor repeats an event.
    const backlog = from < this.revision ? this.eventsSince(prefix, from) : [];
    return this.hub.add(prefix, from, onEvent, onError, options, backlog);
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision > this.revision) throw StorageError.futureRevision(revision, this.revision);
    if (revision > this.compacted) {
      this.stmt.setMeta.run(revision, 'compacted');
      this.compacted = revision;
      this.pastLists = this.pastLists.filter((m) => m.revision >= revision);
      this.startPurge();
    }
    await this.purging;
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  async changedAfter(prefix: string, revision: number): Promise<boolean> {
    this.assertOpen();
    if (revision >= this.revision) return false;
    // history before the compacted revision is incomplete (deletes are purged): assume a change
    if (revision < this.compacted) return true;
    const start = rangeStart(prefix, undefined);
    const end = prefixEnd(prefix) ?? KEYSPACE_END;
    return this.stmt.changedAfter.get(revision, start, end) !== undefined;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compacted;
  }

  /**
   * For a write with a time to live: what records its expiry in the write's transaction (and makes
   * sure expiries are swept). A write without one leaves any earlier expiry row of its key stale.
   */
  private expiring(options: WriteOptions | undefined): ((key: Buffer, rev: number) => void) | undefined {
    const ttl = timeToLive(options);
    if (ttl === undefined) return undefined;
    this.sweepExpiries();
    return (key, rev) => this.stmt.setExpiry.run(key, rev, Date.now() + ttl * 1000);
  }

  /** Starts the periodic sweep: keys whose time to live ran out are deleted like any other key. */
  private sweepExpiries(): void {
    if (this.expirySweeper || this.closed) return;
    this.expirySweeper = setInterval(() => {
      for (const row of this.stmt.dueExpiry.all(Date.now())) {
        const current = this.stmt.get.get(row.key);
        if (current?.mod_rev !== row.mod_rev) {
          // written again or deleted since: that write decided
          this.stmt.dropExpiry.run(row.key, row.mod_rev);
          continue;
        }
        // guarded by the revision: a write that comes first wins, and the row turns stale
        this.delete(row.key.toString('utf8'), row.mod_rev).catch(() => undefined);
      }
    }, this.expirySweepMs);
    this.expirySweeper.unref();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.expirySweeper);
    await this.compactor?.stop();
    // a stopped checkpointer has released the writes it held
    await this.checkpointer?.stop();
    this.flush();
    this.closed = true;
    await this.purging;
    this.hub.failAll(StorageError.unavailable('storage closed'));
    this.db.close();
  }

  /**
   * Queues a write. `apply` runs inside the batch's transaction with the revision it gets; it must
   * throw a StorageError before changing anything when its precondition fails (that write alone
   * fails). The promise settles after the commit, and the events are published in revision order.
   */
  private write(apply: (revision: number) => Applied): Promise<KV> {
    if (this.closed) return Promise.reject(StorageError.unavailable('storage closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ apply, resolve, reject });
      // after the I/O callbacks of this turn of the event loop: the writes of every request read in
      // it share the commit, up to maxCommitWrites
      if (this.queue.length === 1) setImmediate(() => this.flush());
      else if (this.queue.length >= maxCommitWrites) this.flush();
    });
  }

  private flush(): void {
    if (this.held) return;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: (Applied | StorageError)[] = [];
    let rev = this.revision;
    try {
      this.batchTx(() => {
        for (const write of batch) {
          try {
            outcomes.push(write.apply(rev + 1));
            rev++;
          } catch (error) {
            if (!(error instanceof StorageError)) throw error;
            outcomes.push(error);
          }
        }
      });
    } catch (error) {
      const failure = StorageError.unavailable(`write failed: ${(error as Error).message}`, error);
      for (const write of batch) write.reject(failure);
      return;
    }
    this.revision = rev;
    this.checkLog();
    // watchers get the events, and writers their answers, in later microtasks: nothing here can
    // queue a write, so no commit starts inside this one
    batch.forEach((write, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof StorageError) return write.reject(outcome);
      this.hub.publish(outcome.event);
      write.resolve(outcome.kv);
    });
  }

  private eventsSince(prefix: string, from: number): WatchEvent[] {
    const rows = this.stmt.since.all(from, Buffer.from(prefix), prefixEnd(prefix) ?? KEYSPACE_END);
    return rows.map((row) => {
      const prevValue = row.prev_value ?? undefined;
      const event: WatchEvent = {
        type: row.deleted ? 'delete' : 'put',
        key: row.key.toString(),
        value: row.deleted ? (prevValue ?? Buffer.alloc(0)) : row.value!,
        modRevision: row.rev,
        createRevision: row.create_rev,
      };
      if (prevValue) event.prevValue = prevValue;
      return event;
    });
  }

  /** The live row of `key`, checked against the expected modRevision. */
  private checked(k: Buffer, key: string, expectedModRevision: number | undefined): KvRow {
    const current = this.stmt.get.get(k);
    if (!current) throw StorageError.notFound(key);
    if (expectedModRevision !== undefined && expectedModRevision !== current.mod_rev) {
      throw StorageError.conflict(key, toKV(current), expectedModRevision);
    }
    return current;
  }

  /** Removes unreadable history in small steps, yielding to writes between steps. */
  private startPurge(): void {
    this.purging = this.purging.then(async () => {
      let purged = this.meta('purged');
      while (!this.closed && purged < this.compacted) {
        const lo = purged;
        const hi = Math.min(lo + this.batchRevisions, this.compacted);
        this.purgeTx(lo, hi);
        purged = hi;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
  }

  private meta(name: string): number {
    return this.stmt.getMeta.get(name)!.value;
  }

  /**
   * After a commit: moves checkpoints to their thread once the log has grown past 4 MiB; once they
   * are there, holds the writes until the log restarts when it has outgrown the thread's checkpoints.
   */
  private checkLog(): void {
    const file = this.threadCheckpointed;
    if (!file || ++this.commitsSinceLogCheck < logCheckCommits) return;
    this.commitsSinceLogCheck = 0;
    let size: number;
    try {
      size = statSync(`${file}-wal`).size;
    } catch {
      return;
    }
    if (this.checkpointer) {
      if (size > walHoldBytes && !this.held) this.checkpointer.checkpointNow();
      return;
    }
    if (size < threadCheckpointsFromBytes) return;
    const restartFrames = walRestartFrames(this.db);
    this.checkpointer = new WalCheckpointer(
      file,
      {
        // SQLite checkpoints in the commits until the thread has started
        started: () => {
          if (!this.closed) this.db.pragma('wal_autocheckpoint = 0');
        },
        hold: () => (this.held = true),
        release: () => {
          this.held = false;
          if (this.queue.length > 0) setImmediate(() => this.flush());
        },
        // SQLite checkpoints in the commits again
        fallBack: () => {
          if (!this.closed) this.db.pragma(`wal_autocheckpoint = ${restartFrames}`);
        },
      },
      { restartFrames },
    );
  }

  private assertOpen(): void {
    if (this.closed) throw StorageError.unavailable('storage closed');
  }
}

function toKV(row: KvRow): KV {
  return {
    key: row.key.toString(),
    value: row.value,
    modRevision: row.mod_rev,
    createRevision: row.create_rev,
  };
}
