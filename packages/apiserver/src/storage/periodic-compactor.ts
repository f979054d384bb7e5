import type { Storage } from './storage';

export interface PeriodicCompactorOptions {
  /** How often to look at the store. */
  intervalMs: number;
  /** Keep at least this much history: compact only to revisions that are older than this. */
  retentionMs: number;
  /**
   * Also compact whenever more than this many revisions of history are kept, whatever their age
   * (bounds the size of the history; this cap wins over `retentionMs`). Default: no cap.
   */
  maxRevisions?: number;
  /** Called when a compaction fails (the next tick tries again). */
  onError?: (error: unknown) => void;
}

/**
 * Time-based compaction of a store one process owns (the embedded store): every interval, note the
 * current revision with the time, then compact to the newest noted revision that is at least
 * `retentionMs` old. History younger than the retention is therefore always kept. Timers are
 * unref'd so they never keep the process alive. An etcd cluster shared by several apiservers is
 * compacted by `EtcdCompactor` instead, which takes turns with the other apiservers.
 */
export class PeriodicCompactor {
  private readonly checkpoints: { revision: number; at: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;

  constructor(
    private readonly storage: Pick<Storage, 'currentRevision' | 'compact' | 'compactedRevision'>,
    private readonly options: PeriodicCompactorOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.tick(), options.intervalMs);
    this.timer.unref();
  }

  /** One round: record the current revision and compact what has aged out. */
  tick(): Promise<void> {
    this.running ??= this.compactAged().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops the timer and waits for a round in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async compactAged(): Promise<void> {
    try {
      const now = this.now();
      const current = await this.storage.currentRevision();
      this.checkpoints.push({ revision: current, at: now });
      let target = 0;
      while (this.checkpoints.length > 0 && this.checkpoints[0].at <= now - this.options.retentionMs) {
        target = this.checkpoints.shift()!.revision;
      }
      if (this.options.maxRevisions !== undefined) {
        target = Math.max(target, current - this.options.maxRevisions);
      }
      if (target > 0 && target > (await this.storage.compactedRevision())) await this.storage.compact(target);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
