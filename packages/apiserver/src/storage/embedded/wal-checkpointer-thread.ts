import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** What the checkpointer's thread is started with. */
export interface CheckpointerThreadData {
  /** The database file (its write-ahead log is `<file>-wal`). */
  file: string;
  /** Log frames (pages) at which writes are held for a complete checkpoint that lets the log restart. */
  restartFrames: number;
  /** Pause between checkpoints while the log grows. */
  activeMs: number;
  /** Pause between checks while the log does not grow. */
  idleMs: number;
}

/** Messages to the thread: writes are now held; or stop. */
export type ToCheckpointer = { type: 'held' } | { type: 'stop' };
/** Messages from the thread: hold writes (the log is long enough to restart); release them. */
export type FromCheckpointer = { type: 'hold' } | { type: 'release' };

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

// The thread's body: runs only when this module is a worker's entry.
if (parentPort) {
  const port = parentPort;
  const { file, restartFrames, activeMs, idleMs } = workerData as CheckpointerThreadData;
  const db = new Database(file);
  // checkpointing reads log frames and writes database pages; it needs no page cache of its own
  db.pragma('cache_size = -512');
  let stopping = false;
  let held: (() => void) | undefined;
  port.on('message', (m: ToCheckpointer) => {
    if (m.type === 'stop') stopping = true;
    held?.();
    held = undefined;
  });
  const passive = (): CheckpointResult => (db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0]!;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  void (async () => {
    let lastLog = -1;
    // a hold that could not complete the checkpoint (a reader kept frames in use) is not tried
    // again before the log has doubled
    let holdAt = restartFrames;
    while (!stopping) {
      // copies the log's frames into the database file and syncs both, beside the writes
      const r = passive();
      if (r.log >= holdAt) {
        // Commits go on while a checkpoint runs, so under steady writes one never catches up with the
        // log's end, and a log only restarts after a complete checkpoint. Writes are held for the
        // short one that copies what came since the last.
        await new Promise<void>((resolve) => {
          held = resolve;
          port.postMessage({ type: 'hold' } satisfies FromCheckpointer);
        });
        if (stopping) break;
        const after = passive();
        const complete = after.busy === 0 && after.log === after.checkpointed;
        holdAt = complete ? restartFrames : 2 * after.log;
        port.postMessage({ type: 'release' } satisfies FromCheckpointer);
      }
      const grew = r.log !== lastLog;
      lastLog = r.log;
      await pause(grew ? activeMs : idleMs);
    }
    db.close();
    // the port's listener would keep the thread alive
    port.close();
  })();
}
