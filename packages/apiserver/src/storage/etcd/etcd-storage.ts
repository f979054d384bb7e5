import { circuitBreaker, ConsecutiveBreaker, ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import { Etcd3, isRecoverableError, type IOptions, type IWatchResponse, type Watcher } from 'etcd3';
import { prefixEnd, rangeStart } from '../key-range';
import { EtcdCompactor } from '../etcd-compactor';
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
import { failedWatch } from '../watch-hub';
import { fromEtcdError, isEtcdCompacted, isEtcdFutureRevision } from './etcd-errors';
import { EtcdKeys } from './etcd-keys';
import {
  CompareResult,
  CompareTarget,
  EtcdKVClient,
  int64,
  type EtcdCompare,
  type EtcdKeyValue,
  type EtcdRequestOp,
  type EtcdTxnResponse,
  type Int64,
} from './etcd-kv-client';
import { LeaseManager } from './lease-manager';

export interface EtcdStorageOptions {
  /** Client URLs of the cluster members, e.g. `['http://127.0.0.1:2379']`. */
  endpoints: string[];
  /**
   * Compact every interval to the revision seen one interval earlier, as kube-apiserver does.
   * Default 5 minutes; 0 disables compaction by this client (e.g. when etcd runs its own
   * `--auto-compaction-*`). Several apiservers on one cluster take turns through etcd's
   * `compact_rev_key`, so the cluster is compacted once per interval in total.
   */
  compactionIntervalMs?: number;
  /** Deadline of every unary call (reads, writes, compaction); streams have none. Default 15 s. */
  requestTimeoutMs?: number;
  /**
   * TLS towards `https://` members (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`): the CA
   * that signed the members' serving certificates (the system's when absent), and a client
   * certificate with its key when the members ask for one.
   */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** Where the keys live in etcd (`--etcd-prefix`): in place of their own root `/registry`. */
  prefix?: string;
  /** Passed to the etcd3 client of watches and compaction (auth, gRPC options). */
  client?: Omit<IOptions, 'hosts'>;
}

/** A failure of the member called (unreachable, connection lost), not an error the member answered. */
function memberFailure(error: Error): boolean {
  return isRecoverableError(error) && !error.message.includes('etcdserver:');
}

/** etcd's range end for "every key from here on". */
const KEYSPACE_END = Buffer.from([0]);

/**
 * The etcd backend. Keys are stored under the configured prefix (see {@link EtcdKeys}),
 * `modRevision` is etcd's mod revision, every write is a transaction comparing the key's mod (or
 * create) revision, and watches use etcd's watch API with the previous value of each key. Reads
 * and writes go through the lean {@link EtcdKVClient}; watches and compaction's turn-taking
 * through the etcd3 client.
 *
 * A write whose connection fails after etcd applied it is retried by the client's fault handling
 * and may then report `Conflict`/`KeyExists` for its own effect; any `Unavailable` failure of a
 * write means "outcome unknown", as with any remote store.
 */
export class EtcdStorage implements Storage {
  /** The etcd3 client: watches (streams) and the compactor's turn-taking. */
  readonly client: Etcd3;
  private readonly kv: EtcdKVClient;
  private readonly leases: LeaseManager;
  private readonly keys: EtcdKeys;
  private readonly compactor: EtcdCompactor | undefined;
  private readonly watches = new Set<EtcdWatch>();
  private knownCompacted = 0;
  private closed = false;

  constructor(options: EtcdStorageOptions) {
    const timeout = options.requestTimeoutMs ?? 15_000;
    this.client = new Etcd3({
      defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + timeout }),
      // A member that fails is skipped for a second (not the client's default five), and a failed call
      // is retried on another member after a short back-off, so an election after a member dies costs
      // about as long as the election itself. Only failures of the member itself count against it: a
      // live member's answer "etcdserver: request timed out" (calls caught by an election) is retried
      // but does not take that member out, else the calls in flight when a leader dies would shut every
      // survivor out for a second.
      faultHandling: {
        host: () =>
          circuitBreaker(handleWhen(memberFailure), {
            halfOpenAfter: 1000,
            breaker: new ConsecutiveBreaker(3),
          }),
        global: retry(handleWhen(isRecoverableError), {
          maxAttempts: 5,
          backoff: new ExponentialBackoff({ initialDelay: 50, maxDelay: 1000 }),
        }),
      },
      grpcOptions: {
        // whole-collection lists of large resources exceed gRPC's 4 MiB default (Kubernetes lifts it too)
        'grpc.max_receive_message_length': -1,
        // per-call bookkeeping nobody reads: channel statistics, and gRPC's own retries (the fault
        // handling above retries, on another member)
        'grpc.enable_channelz': 0,
        'grpc.enable_retries': 0,
      },
      ...(options.tls && {
        credentials: {
          // absent: grpc's createSsl takes the system's roots
          rootCertificate: options.tls.ca as Buffer,
          certChain: options.tls.cert,
          privateKey: options.tls.key,
        },
      }),
      ...options.client,
      hosts: options.endpoints,
    });
    this.kv = new EtcdKVClient({ endpoints: options.endpoints, timeoutMs: timeout, tls: options.tls });
    this.leases = new LeaseManager(this.kv);
    this.keys = new EtcdKeys(options.prefix);
    const interval = options.compactionIntervalMs ?? 5 * 60_000;
    if (interval > 0) {
      this.compactor = new EtcdCompactor(this, { intervalMs: interval });
    }
  }

  async get(key: string): Promise<KV | undefined> {
    this.assertOpen();
    try {
      const res = await this.kv.range({ key: this.keys.toEtcd(key) });
      return res.kvs.length > 0 ? this.toKV(res.kvs[0]) : undefined;
    } catch (error) {
      throw fromEtcdError(error);
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const revision = options.revision ?? 0;
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    try {
      const res = await this.kv.range({
        key: this.keys.toEtcd(rangeStart(prefix, options.startKey).toString()),
        range_end: prefixEnd(this.keys.toEtcd(prefix)) ?? KEYSPACE_END,
        limit,
        revision,
        keys_only: Boolean(options.keysOnly),
      });
      const items = res.kvs.map((kv) => this.toKV(kv));
      const remaining = int64(res.count) - items.length;
      return { items, revision: revision || int64(res.header.revision), more: res.more, remaining };
    } catch (error) {
      throw fromEtcdError(error, revision, await this.currentRevision().catch(() => 0));
    }
  }

  async create(key: string, value: Uint8Array, options?: WriteOptions): Promise<KV> {
    const k = this.keys.toEtcd(key);
    const v = storedValue(value);
    const ttl = timeToLive(options);
    const lease = ttl === undefined ? undefined : await this.leaseFor(ttl);
    const res = await this.txn(
      [{ key: k, target: CompareTarget.Create, result: CompareResult.Equal, create_revision: 0 }],
      { request_put: { key: k, value: v, lease } },
      { request_range: { key: k } },
      true,
    );
    if (!res.succeeded) {
      // A call retried after a lost answer may find its own first attempt applied: the same bytes
      // created by this call are success, not KeyExists (stored objects carry a unique uid).
      const existing = this.landed(res, v);
      if (existing && existing.createRevision === existing.modRevision) return existing;
      throw StorageError.keyExists(key);
    }
    const revision = int64(res.header.revision);
    return { key, value: v, modRevision: revision, createRevision: revision };
  }

  async update(
    key: string,
    value: Uint8Array,
    expectedModRevision?: number,
    options?: WriteOptions,
  ): Promise<KV> {
    const k = this.keys.toEtcd(key);
    const v = storedValue(value);
    const ttl = timeToLive(options);
    const lease = ttl === undefined ? undefined : await this.leaseFor(ttl);
    const res = await this.txn(
      [guard(k, expectedModRevision)],
      { request_put: { key: k, value: v, prev_kv: true, lease } },
      { request_range: { key: k } },
      true,
    );
    if (!res.succeeded) {
      // a resent call's earlier attempt may have landed: a newer revision with exactly our bytes (an
      // update, unlike a create, can give bytes another write gave, so only when it was resent)
      const existing = res.resent ? this.landed(res, v) : undefined;
      if (existing && existing.modRevision > (expectedModRevision ?? 0)) return existing;
      throw this.failure(key, res, expectedModRevision);
    }
    const prev = res.responses[0].response_put?.prev_kv;
    const revision = int64(res.header.revision);
    return { key, value: v, modRevision: revision, createRevision: int64(prev?.create_revision) };
  }

  /** The lease a write with a time to live attaches its key to. */
  private async leaseFor(ttl: number): Promise<Int64> {
    this.assertOpen();
    try {
      return await this.leases.lease(Math.ceil(ttl));
    } catch (error) {
      throw fromEtcdError(error);
    }
  }

  async delete(key: string, expectedModRevision?: number): Promise<KV> {
    const k = this.keys.toEtcd(key);
    const res = await this.txn(
      [guard(k, expectedModRevision)],
      { request_delete_range: { key: k, prev_kv: true } },
      { request_range: { key: k } },
    );
    if (!res.succeeded) throw this.failure(key, res, expectedModRevision);
    const prev = res.responses[0].response_delete_range?.prev_kvs[0];
    return {
      key,
      value: bytes(prev?.value),
      modRevision: int64(res.header.revision),
      createRevision: int64(prev?.create_revision),
    };
  }

  async watch(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    _options: WatchOptions = {},
  ): Promise<WatchHandle> {
    this.assertOpen();
    let from = fromRevision;
    if (from > 0) {
      const compacted = await this.probeCompacted(from);
      if (compacted) return failedWatch(onError, compacted);
    } else {
      from = await this.currentRevision();
    }
    const watch = new EtcdWatch(this, this.keys, prefix, from, onEvent, onError, () =>
      this.watches.delete(watch),
    );
    this.watches.add(watch);
    await watch.start();
    return { stop: () => void watch.stop() };
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    try {
      await this.kv.compact(revision);
    } catch (error) {
      if (!isEtcdCompacted(error)) throw fromEtcdError(error, revision, await this.currentRevision());
    }
    this.knownCompacted = Math.max(this.knownCompacted, revision);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    try {
      const res = await this.kv.range({ key: Buffer.from([0]), limit: 1, keys_only: true });
      return int64(res.header.revision);
    } catch (error) {
      throw fromEtcdError(error);
    }
  }

  /**
   * etcd does not report its compacted revision; it is the lowest revision a read still succeeds
   * at. Found by bisection between the highest one known here and the current revision.
   */
  async compactedRevision(): Promise<number> {
    let lo = this.knownCompacted;
    let hi = await this.currentRevision();
    if (lo === 0 && !(await this.probeCompacted(1))) return 0;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.probeCompacted(mid)) lo = mid + 1;
      else hi = mid;
    }
    this.knownCompacted = lo;
    return lo;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.compactor?.stop();
    this.closed = true;
    // Cancelling asks etcd and waits for its answer; a member that went silent must not hold us.
    const cancelled = Promise.all([...this.watches].map((w) => w.stop()));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([cancelled, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
    this.client.close();
    this.kv.close();
  }

  /** A `Compacted` error when a read at `revision` is refused for compaction, else undefined. */
  async probeCompacted(revision: number): Promise<StorageError | undefined> {
    try {
      await this.kv.range({ key: Buffer.from([0]), limit: 1, keys_only: true, revision });
      return undefined;
    } catch (error) {
      if (isEtcdFutureRevision(error)) return undefined;
      if (isEtcdCompacted(error)) return fromEtcdError(error, revision);
      throw fromEtcdError(error, revision);
    }
  }

  /** A guarded txn; `retrySafe` for writes that recognize their own landed attempt (see landed). */
  private async txn(compare: EtcdCompare[], success: EtcdRequestOp, fail: EtcdRequestOp, retrySafe = false) {
    this.assertOpen();
    try {
      return await this.kv.txn({ compare, success: [success], failure: [fail] }, retrySafe);
    } catch (error) {
      throw fromEtcdError(error);
    }
  }

  /** The current KV of a failed guarded write when it holds exactly `value`. */
  private landed(res: EtcdTxnResponse, value: Buffer): KV | undefined {
    const kvs = res.responses[0].response_range?.kvs ?? [];
    if (kvs.length === 0 || !bytes(kvs[0].value).equals(value)) return undefined;
    return this.toKV(kvs[0]);
  }

  private failure(key: string, res: EtcdTxnResponse, expectedModRevision: number | undefined): StorageError {
    const kvs = res.responses[0].response_range?.kvs ?? [];
    if (kvs.length === 0) return StorageError.notFound(key);
    return StorageError.conflict(key, this.toKV(kvs[0]), expectedModRevision ?? 0);
  }

  /**
   * A KV of an answer, its value copied: a view would keep the whole answer (a list's megabytes)
   * alive for as long as the watch cache holds any one value of it.
   */
  private toKV(kv: EtcdKeyValue): KV {
    return {
      key: this.keys.fromEtcd(bytes(kv.key)),
      value: Buffer.from(bytes(kv.value)),
      modRevision: int64(kv.mod_revision),
      createRevision: int64(kv.create_revision),
    };
  }

  private assertOpen(): void {
    if (this.closed) throw StorageError.unavailable('storage closed');
  }
}

/**
 * One etcd watch. The client library reconnects after a member fails; before it does, the watch
 * is pointed at the revision after the last event delivered here, so the resumed stream neither
 * repeats nor skips an event.
 */
class EtcdWatch {
  private watcher: Watcher | undefined;
  private lastRevision: number;
  private stopped = false;

  constructor(
    private readonly storage: EtcdStorage,
    private readonly keys: EtcdKeys,
    private readonly prefix: string,
    fromRevision: number,
    private readonly onEvent: (event: WatchEvent) => void,
    private readonly onError: (error: Error) => void,
    private readonly detach: () => void,
  ) {
    this.lastRevision = fromRevision;
  }

  /** Opens the watch; resolves once etcd confirmed it. Listeners are attached before any response. */
  async start(): Promise<void> {
    const watcher = this.storage.client
      .watch()
      .inRange({
        start: this.keys.toEtcd(this.prefix),
        end: prefixEnd(this.keys.toEtcd(this.prefix)) ?? KEYSPACE_END,
      })
      .startRevision(String(this.lastRevision + 1))
      .withPreviousKV()
      .watcher();
    this.watcher = watcher;
    const connected = new Promise<void>((resolve) => {
      watcher.once('connected', () => resolve());
      watcher.once('error', () => resolve());
    });
    watcher.on('data', (res: IWatchResponse) => this.deliver(res));
    watcher.on('disconnected', () => {
      (watcher.request as { start_revision?: number }).start_revision = this.lastRevision + 1;
    });
    watcher.on('error', (error: Error) => void this.fail(error));
    await connected;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.detach();
    await this.watcher?.cancel().catch(() => undefined);
  }

  private deliver(res: IWatchResponse): void {
    for (const e of res.events) {
      if (this.stopped) return;
      const modRevision = Number(e.kv.mod_revision);
      if (modRevision <= this.lastRevision) continue;
      this.lastRevision = modRevision;
      const prev = e.prev_kv ? Buffer.from(e.prev_kv.value) : undefined;
      const event: WatchEvent =
        e.type === 'Delete'
          ? {
              type: 'delete',
              key: this.keys.fromEtcd(e.kv.key),
              value: prev ?? Buffer.alloc(0),
              modRevision,
              createRevision: e.prev_kv ? Number(e.prev_kv.create_revision) : 0,
            }
          : {
              type: 'put',
              key: this.keys.fromEtcd(e.kv.key),
              value: Buffer.from(e.kv.value),
              modRevision,
              createRevision: Number(e.kv.create_revision),
            };
      if (prev) event.prevValue = prev;
      try {
        this.onEvent(event);
      } catch (error) {
        void this.fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
  }

  /** Ends the watch with a typed error: `Compacted` when etcd dropped the history it needed. */
  private async fail(cause: Error): Promise<void> {
    if (this.stopped) return;
    // etcd already dropped this watcher: nothing to cancel.
    this.stopped = true;
    this.detach();
    const compacted = await this.storage.probeCompacted(this.lastRevision).catch(() => undefined);
    this.onError(compacted ?? fromEtcdError(cause, this.lastRevision));
  }
}

function guard(key: Buffer, expectedModRevision: number | undefined): EtcdCompare {
  return expectedModRevision === undefined
    ? { key, target: CompareTarget.Create, result: CompareResult.Greater, create_revision: 0 }
    : { key, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: expectedModRevision };
}

/**
 * A decoded bytes field as a Buffer over the same memory (the answer it came in is ours alone). An
 * absent field decodes as protobufjs' shared empty default, which is not a Uint8Array.
 */
function bytes(value: Uint8Array | undefined): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (!(value instanceof Uint8Array)) return Buffer.alloc(0);
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
