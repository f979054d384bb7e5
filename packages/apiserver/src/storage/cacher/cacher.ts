import type {
  KV,
  ListOptions,
  ListResult,
  Storage,
  WatchEvent,
  WatchHandle,
  WatchOptions,
  WriteOptions,
} from '../storage';
import { StorageError } from '../storage-error';
import { WatchHub, failedWatch } from '../watch-hub';
import { partitionPoint } from '../partition-point';
import { EventWindow } from './event-window';

export interface CacherOptions {
  /** The resource prefix cached, e.g. `/registry/apps/deployments/`. */
  prefix: string;
  /** Serve watches from events at least this old. Default 5 minutes. */
  windowMs?: number;
  /** At most this many events in the window (bounds memory; wins over `windowMs`). Default 100,000. */
  capacity?: number;
  /** How often watchers that asked for bookmarks get one. Default 1 minute; 0: never. */
  bookmarkIntervalMs?: number;
  /** Close the backend when the cacher is closed. Default false (backends are shared). */
  ownsBackend?: boolean;
  /** Wait before re-establishing the cache after its backend watch failed. Default 1 s. */
  retryDelayMs?: number;
  now?: () => number;
}

/**
 * The watch cache: a {@link Storage} decorator for one resource prefix. A single backend watch
 * feeds an in-memory copy of the current objects and a window of recent events, from which it
 * serves any number of watches under the prefix (a revision older than the window gets
 * `Compacted`, i.e. 410 Gone) and lists with `fromCache: true` (Kubernetes' `resourceVersion=0`:
 * possibly slightly stale, never older than what the cache has seen). Watchers that pass
 * `onBookmark` get periodic bookmarks. Gets and lists of the current state are answered from memory
 * when the backend can tell the cache holds that state (`changedAfter`), and read from the backend
 * otherwise. Writes and anything outside the prefix go straight to the backend.
 */
export class Cacher implements Storage {
  private readonly objects = new Map<string, KV>();
  private readonly hub = new WatchHub();
  private readonly window: EventWindow;
  private readonly now: () => number;
  private readonly bookmarkTimer: NodeJS.Timeout | undefined;
  /** The newest revision the cache reflects. */
  private revision = 0;
  /**
   * A revision up to which the backend is known to hold nothing under the prefix newer than the
   * cache (checked with the backend's `changedAfter`); 0 when not known.
   */
  private verified = 0;
  /** The cached KVs in key order, until the next change. */
  private sortedCache: KV[] | undefined;
  private source: WatchHandle | undefined;
  /** Bumped on every (re)initialization; callbacks of an older backend watch are ignored. */
  private generation = 0;
  private ready: Promise<void>;
  /**
   * The cache holds the current state and follows it; false while it is built or rebuilt after a
   * lost backend watch, when reads go to the backend instead of waiting for it (as Kubernetes'
   * watch cache delegates reads while it initializes). Watches wait.
   */
  private serving = false;
  private closed = false;

  private constructor(
    readonly backend: Storage,
    private readonly options: CacherOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.window = new EventWindow(
      { windowMs: options.windowMs ?? 5 * 60_000, capacity: options.capacity ?? 100_000, now: this.now },
      0,
    );
    const interval = options.bookmarkIntervalMs ?? 60_000;
    if (interval > 0) {
      this.bookmarkTimer = setInterval(() => this.hub.bookmark(this.revision), interval);
      this.bookmarkTimer.unref();
    }
    this.ready = this.initialize();
  }

  /** Creates the cache and waits until it holds the current state of the prefix. */
  static async start(backend: Storage, options: CacherOptions): Promise<Cacher> {
    const cacher = new Cacher(backend, options);
    try {
      await cacher.ready;
    } catch (error) {
      await cacher.close();
      throw error;
    }
    return cacher;
  }

  /** The newest revision the cache reflects. */
  get cachedRevision(): number {
    return this.revision;
  }

  /** How many watchers the cache is serving. */
  get watcherCount(): number {
    return this.hub.size;
  }

  /**
   * The key's current state: from memory when the backend can tell that the cache holds the current
   * revision of everything under its prefix (as a consistent list is answered), else read from the
   * backend (and shared with the cache's KV when it is the same revision).
   */
  async get(key: string): Promise<KV | undefined> {
    if (!this.covers(key)) return this.backend.get(key);
    if ((await this.consistentAt()) !== undefined) return this.objects.get(key);
    const kv = await this.backend.get(key);
    return kv && this.interned(kv);
  }

  /**
   * The key as the cache holds it (possibly slightly stale, like a list with `fromCache`); undefined
   * when the cache does not hold the key (absent, or not seen yet), or it is outside the prefix.
   */
  async cached(key: string): Promise<KV | undefined> {
    return this.covers(key) && this.serving ? this.objects.get(key) : undefined;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    if (!options.fromCache || options.revision || !this.covers(prefix)) {
      if (!this.covers(prefix) || options.keysOnly)
        return this.backend.list(prefix, { ...options, fromCache: false });
      const at = await this.consistentAt(options.revision);
      return at === undefined ? this.backendList(prefix, options) : this.cachedList(prefix, options, at);
    }
    if (!this.serving) return this.backendList(prefix, options);
    return this.cachedList(prefix, options, this.revision);
  }

  /**
   * The revision (`revision`, or the backend's current one) when the cache holds the state there of
   * everything under its prefix, as the backend can tell: nothing under the prefix changed between
   * the state the cache holds and that revision. Undefined when it cannot tell, or when the cache
   * is already past `revision`.
   */
  private async consistentAt(revision?: number): Promise<number | undefined> {
    const changedAfter = this.backend.changedAfter?.bind(this.backend);
    if (!changedAfter || this.closed) return undefined;
    const current = await this.backend.currentRevision();
    if (!this.serving) return undefined;
    const generation = this.generation;
    const target = revision || current;
    // the cache holds the state of every revision from `this.revision` up to `verified`
    if (target < this.revision) return undefined;
    if (target > Math.max(this.revision, this.verified)) {
      const since = Math.max(this.revision, this.verified);
      if (await changedAfter(this.options.prefix, since)) return undefined;
      if (generation !== this.generation) return undefined;
      this.verified = Math.max(this.verified, current);
      if (target > this.verified) return undefined;
    }
    return target;
  }

  /** The cached keys under `prefix` (from `options.startKey`, up to `options.limit`) as of `revision`. */
  private cachedList(prefix: string, options: ListOptions, revision: number): ListResult {
    const from = options.startKey && options.startKey > prefix ? options.startKey : prefix;
    const all = this.sorted();
    // the first key at or after `from` (code point order agrees with either sort)
    const probe = { key: from } as KV;
    const first = partitionPoint(all, 0, (kv) => byCodePoints(kv, probe) < 0);
    // in key order, the keys under a prefix are together: from `first`, up to the first that is not
    const end = partitionPoint(all, first, (kv) => kv.key.startsWith(prefix));
    const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
    const items = all.slice(first, Math.min(end, first + limit));
    const matching = end - first;
    return { items, revision, more: matching > items.length, remaining: matching - items.length };
  }

  /** Every cached KV in key order (kept until the next change). */
  private sorted(): KV[] {
    if (!this.sortedCache) {
      const all = [...this.objects.values()];
      // keys sort by their UTF-8 bytes, i.e. by code points; `<` agrees unless surrogates occur
      all.sort(all.some((kv) => surrogate.test(kv.key)) ? byCodePoints : byCodeUnits);
      this.sortedCache = all;
    }
    return this.sortedCache;
  }

  /**
   * A list read from the backend, with the cache's KVs: the keys and revisions first, and the values
   * only when the cache does not hold every one of those revisions (a write it has not seen yet).
   */
  private async backendList(prefix: string, options: ListOptions): Promise<ListResult> {
    const keys = await this.backend.list(prefix, { ...options, fromCache: false, keysOnly: true });
    const items: KV[] = [];
    for (const kv of keys.items) {
      const cached = this.objects.get(kv.key);
      if (!cached || cached.modRevision !== kv.modRevision) {
        const page = await this.backend.list(prefix, {
          ...options,
          fromCache: false,
          revision: keys.revision,
        });
        page.items = page.items.map((item) => this.interned(item));
        return page;
      }
      items.push(cached);
    }
    return { ...keys, items };
  }

  /**
   * The cache's own KV when it holds the same revision of the key, else `kv`: what is read of one
   * version of an object is then one object, so whatever callers derive from it (decoded objects,
   * encodings) can be kept with it and shared.
   */
  private interned(kv: KV): KV {
    const cached = this.objects.get(kv.key);
    return cached && cached.modRevision === kv.modRevision ? cached : kv;
  }

  create(key: string, value: Uint8Array, options?: WriteOptions): Promise<KV> {
    return this.backend.create(key, value, options);
  }

  update(key: string, value: Uint8Array, expectedModRevision?: number, options?: WriteOptions): Promise<KV> {
    return this.backend.update(key, value, expectedModRevision, options);
  }

  delete(key: string, expectedModRevision?: number): Promise<KV> {
    return this.backend.delete(key, expectedModRevision);
  }

  async watch(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    options: WatchOptions = {},
  ): Promise<WatchHandle> {
    if (!this.covers(prefix)) return this.backend.watch(prefix, fromRevision, onEvent, onError, options);
    if (this.closed) throw StorageError.unavailable('watch cache closed');
    // "From now" is the backend's revision now: events up to it, even those the cache has not seen
    // yet, happened before this call and are not delivered.
    const from = fromRevision > 0 ? fromRevision : await this.backend.currentRevision();
    await this.ready;
    this.window.expire();
    if (from < this.window.startRevision) {
      return failedWatch(onError, StorageError.compacted(from, this.window.startRevision));
    }
    const backlog = from < this.revision ? this.window.since(from) : [];
    return this.hub.add(prefix, from, onEvent, onError, options, backlog);
  }

  async compact(revision: number): Promise<void> {
    await this.backend.compact(revision);
    this.window.dropThrough(revision);
  }

  currentRevision(): Promise<number> {
    return this.backend.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.backend.compactedRevision();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.bookmarkTimer);
    this.source?.stop();
    await this.ready.catch(() => undefined);
    this.source?.stop();
    this.hub.failAll(StorageError.unavailable('watch cache closed'));
    if (this.options.ownsBackend) await this.backend.close();
  }

  private covers(prefix: string): boolean {
    return prefix.startsWith(this.options.prefix);
  }

  /** Loads the current state and starts the one backend watch that keeps it current. */
  private async initialize(): Promise<void> {
    const generation = ++this.generation;
    const snapshot = await this.backend.list(this.options.prefix);
    this.objects.clear();
    this.sortedCache = undefined;
    for (const kv of snapshot.items) this.objects.set(kv.key, kv);
    this.revision = snapshot.revision;
    this.verified = 0;
    this.window.dropThrough(Number.MAX_SAFE_INTEGER);
    this.window.startRevision = snapshot.revision;
    if (this.closed) return;
    this.source = await this.backend.watch(
      this.options.prefix,
      snapshot.revision,
      (event) => generation === this.generation && this.apply(event),
      (error) => generation === this.generation && this.restart(error),
    );
    if (generation === this.generation) this.serving = true;
  }

  private apply(event: WatchEvent): void {
    this.sortedCache = undefined;
    if (event.type === 'delete') this.objects.delete(event.key);
    else {
      this.objects.set(event.key, {
        key: event.key,
        value: event.value,
        modRevision: event.modRevision,
        createRevision: event.createRevision,
      });
    }
    this.revision = event.modRevision;
    this.window.push(event);
    this.hub.publish(event);
  }

  /**
   * The backend watch failed: the cache can no longer vouch for its contents. Every watcher is
   * ended (clients re-watch from their last revision, or re-list on `Compacted`) and the cache is
   * rebuilt from a fresh list.
   */
  private restart(error: Error): void {
    if (this.closed) return;
    this.generation++;
    this.serving = false;
    this.source?.stop();
    this.source = undefined;
    this.hub.failAll(StorageError.unavailable(`watch cache lost its backend watch: ${error.message}`, error));
    const retry = async (): Promise<void> => {
      for (;;) {
        if (this.closed) return;
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 1000).unref());
        try {
          return await this.initialize();
        } catch {
          // try again
        }
      }
    };
    this.ready = retry();
  }
}

const surrogate = /[\ud800-\udfff]/;

function byCodeUnits(a: KV, b: KV): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Code point order (= UTF-8 byte order): surrogates (astral characters) sort after U+E000–U+FFFF. */
function byCodePoints(a: KV, b: KV): number {
  const x = a.key;
  const y = b.key;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    let p = x.charCodeAt(i);
    let q = y.charCodeAt(i);
    if (p === q) continue;
    if (p >= 0xd800 && p <= 0xdfff) p += 0x10000;
    if (q >= 0xd800 && q <= 0xdfff) q += 0x10000;
    return p - q;
  }
  return x.length - y.length;
}
