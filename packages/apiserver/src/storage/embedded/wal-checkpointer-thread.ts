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

/**
 * Messages to the thread: writes are now held; the log has grown past its bound (the writes are held
 * already), checkpoint now; or stop.
 */
export type ToCheckpointer = { type: 'held' } | { type: 'urge' } | { type: 'stop' };
/**
 * Messages from the thread: it has opened the database and checkpoints from now on; hold writes (the
 * log is long enough to restart); release them.
 */
export type FromCheckpointer = { type: 'ready' } | { type: 'hold' } | { type: 'release' };

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
  port.postMessage({ type: 'ready' } satisfies FromCheckpointer);
  let stopping = false;
  let urged = false;
  let held: (() => void) | undefined;
  let wake: (() => void) | undefined;
  port.on('message', (m: ToCheckpointer) => {
    if (m.type === 'urge') urged = true;
    else {
      if (m.type === 'stop') stopping = true;
      held?.();
      held = undefined;
    }
    wake?.();
  });
  const passive = (): CheckpointResult => (db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0]!;
  /** Waits `ms`, or less when a message comes. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake?.(), ms);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  void (async () => {
    let lastLog = -1;
    // a hold that could not complete the checkpoint (a reader kept frames in use) is not tried
    // again before the log has doubled
    let holdAt = restartFrames;
    while (!stopping) {
      // copies the log's frames into the database file and syncs both, beside the writes (urged,
      // the writes wait already: straight to the checkpoint that lets the log restart)
      const r = urged ? undefined : passive();
      if (!r || r.log >= holdAt) {
        urged = false;
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
      const grew = !r || r.log !== lastLog;
      lastLog = r?.log ?? -1;
      await pause(grew ? activeMs : idleMs);
    }
    db.close();
    // the port's listener would keep the thread alive
    port.close();
  })();
}
