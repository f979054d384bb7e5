import { CompareResult, CompareTarget, type Etcd3 } from 'etcd3';

/**
 * The key through which every apiserver on one etcd cluster takes turns compacting. Its version is
 * the shared "compaction time" and its value the revision the last round compacted to. It lives at
 * the root of the keyspace (Kubernetes' name and place), outside the resource prefix.
 */
export const COMPACT_REV_KEY = 'compact_rev_key';

export interface EtcdCompactorOptions {
  /** Time between rounds; each compaction keeps at least one interval of history. */
  intervalMs: number;
  /** Called after this compactor compacted etcd to `revision`. */
  onCompacted?: (revision: number) => void;
  /** Called when a round fails (the next round tries again). */
  onError?: (error: unknown) => void;
}

/** What the compactor needs of the store: a client for the turn-taking txn, and compaction. */
export interface EtcdCompactorStore {
  readonly client: Etcd3;
  compact(revision: number): Promise<void>;
}

/**
 * Compaction coordinated across every apiserver sharing an etcd cluster, as kube-apiserver does it.
 * Every interval, each compactor runs one txn: if the version of `compact_rev_key` still equals the
 * version it last saw, nobody compacted since its previous round, so it takes this round: it writes
 * the key (bumping the version) and compacts to the revision it noted one round earlier. Otherwise
 * it only learns the new version and the current revision. The version acts as a lease: the
 * cluster compacts once per interval in total, whatever the number of apiservers, and when the one
 * taking the rounds stops, another takes over within two intervals. The first round of a fresh
 * compactor never compacts (it has no revision noted yet). Timers are unref'd.
 */
export class EtcdCompactor {
  /** The version of `compact_rev_key` this compactor last saw (0: the key does not exist). */
  private compactTime = 0;
  /** The etcd revision noted in the previous round: the target of the next compaction. */
  private revision = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: EtcdCompactorStore,
    private readonly options: EtcdCompactorOptions,
  ) {
    this.schedule();
  }

  /** One round now (rounds never overlap: a call during a round returns that round). */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops the rounds and waits for one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** The next round starts one interval after the previous one ended. */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick().finally(() => this.schedule()), this.options.intervalMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    const key = Buffer.from(COMPACT_REV_KEY);
    try {
      const res = await this.store.client.kv.txn({
        compare: [
          { key, target: CompareTarget.Version, result: CompareResult.Equal, version: this.compactTime },
        ],
        // the put bumps the key's version: the others' compares fail until they learn it
        success: [{ request_put: { key, value: Buffer.from(String(this.revision)) } }],
        failure: [{ request_range: { key } }],
      });
      const current = Number(res.header.revision);
      if (!res.succeeded) {
        this.compactTime = Number(res.responses[0]?.response_range?.kvs[0]?.version ?? 0);
        this.revision = current;
        return;
      }
      this.compactTime += 1;
      const target = this.revision;
      this.revision = current;
      if (target === 0) return;
      await this.store.compact(target);
      this.options.onCompacted?.(target);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
