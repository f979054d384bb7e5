import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CheckpointerThreadData, FromCheckpointer, ToCheckpointer } from './wal-checkpointer-thread';

/** What the checkpointer asks of the store that writes the database. */
export interface CheckpointedWrites {
  /**
   * The thread has opened the database and checkpoints from now on: the writing connection stops
   * checkpointing (until then it goes on, so the log stays bounded while the thread starts).
   */
  started(): void;
  /** Stop committing: writes wait in the queue until `release`. */
  hold(): void;
  /** Commit again, the writes that waited first. */
  release(): void;
  /** The checkpointer's thread is gone: the writing connection checkpoints again itself. */
  fallBack(error: Error): void;
}

export interface WalCheckpointerOptions {
  /** Log frames (pages) at which the log is restarted. */
  restartFrames: number;
  /** Pause between checkpoints while the log grows. Default 50 ms. */
  activeMs?: number;
  /** Pause between checks while it does not. Default 100 ms. */
  idleMs?: number;
  /** Writes are released after this long even if the thread has not answered. Default 1 s. */
  maxHoldMs?: number;
}

/**
 * The compiled thread module: beside this one when running compiled, else (tests running the
 * TypeScript sources) under `dist/`, which the build writes.
 */
function threadEntry(): string {
  const dir = __filename.endsWith('.ts')
    ? __dirname.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2')
    : __dirname;
  return join(dir, 'wal-checkpointer-thread.js');
}

/**
 * Checkpoints a database's write-ahead log from a thread of its own, so that the writing thread
 * never copies log frames into the database nor waits for the two fsyncs of a checkpoint (with
 * SQLite's automatic checkpoint, a stall of tens of milliseconds every 16 MiB of log). The thread
 * checkpoints (PASSIVE) while writes go on; when the log has reached `restartFrames` it has the
 * writes held for one short checkpoint of what came since the last, which completes and lets the
 * next write restart the log from its beginning. The writing thread's event loop is never blocked:
 * reads and everything else go on during a hold, and the writes it delays are not acknowledged yet.
 */
export class WalCheckpointer {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;
  private holdTimer: NodeJS.Timeout | undefined;
  private readonly hold: () => void;
  private stopping = false;

  constructor(file: string, writes: CheckpointedWrites, options: WalCheckpointerOptions) {
    const data: CheckpointerThreadData = {
      file,
      restartFrames: options.restartFrames,
      activeMs: options.activeMs ?? 50,
      idleMs: options.idleMs ?? 100,
    };
    const maxHoldMs = options.maxHoldMs ?? 1000;
    this.thread = new Worker(threadEntry(), {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    this.thread.unref();
    const release = () => {
      clearTimeout(this.holdTimer);
      this.holdTimer = undefined;
      writes.release();
    };
    this.hold = () => {
      writes.hold();
      clearTimeout(this.holdTimer);
      this.holdTimer = setTimeout(release, maxHoldMs);
    };
    this.thread.on('message', (m: FromCheckpointer) => {
      if (m.type === 'ready') writes.started();
      else if (m.type === 'hold') {
        // nothing is being committed now: the thread's next checkpoint sees the log's end
        this.hold();
        this.post({ type: 'held' });
      } else release();
    });
    let failure: Error | undefined;
    this.thread.on('error', (error: Partial<Error> & { code?: string }) => {
      // an error of the thread's own classes arrives as a plain object: only its own fields remain
      failure = new Error(
        `WAL checkpointer thread failed: ${[error.code, error.message].filter(Boolean).join(' ')}`,
      );
    });
    this.exited = new Promise((resolve) =>
      this.thread.on('exit', (code) => {
        release();
        if (!this.stopping)
          writes.fallBack(failure ?? new Error(`WAL checkpointer thread exited with code ${code}`));
        // nothing is posted to a thread that is gone
        this.stopping = true;
        resolve();
      }),
    );
  }

  /**
   * The log has grown past its bound between two of the thread's looks at it (writes outpacing its
   * checkpoints): the writes are held at once, and the thread checkpoints and restarts the log now.
   */
  checkpointNow(): void {
    if (this.stopping) return;
    this.hold();
    this.post({ type: 'urge' });
  }

  /** Ends the thread (it closes its connection); resolves once it has. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      this.post({ type: 'stop' });
    }
    await this.exited;
  }

  private post(message: ToCheckpointer): void {
    this.thread.postMessage(message);
  }
}
