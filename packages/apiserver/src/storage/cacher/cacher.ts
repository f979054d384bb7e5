import type { KV, ListOptions, ListResult, Storage, WatchEvent, WatchHandle, WatchOptions } from '../storage';
import { StorageError } from '../storage-error';
import { WatchHub, failedWatch } from '../watch-hub';
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
 * `onBookmark` get periodic bookmarks. Writes, gets, other lists and anything outside the prefix go
 * straight to the backend.
 */
export class Cacher implements Storage {
  private readonly objects = new Map<string, KV>();
  private readonly hub = new WatchHub();
  private readonly window: EventWindow;
  private readonly now: () => number;
  private readonly bookmarkTimer: NodeJS.Timeout | undefined;
  /** The newest revision the cache reflects. */
  private revision = 0;
  private source: WatchHandle | undefined;
  /** Bumped on every (re)initialization; callbacks of an older backend watch are ignored. */
  private generation = 0;
  private ready: Promise<void>;
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

  get(key: string): Promise<KV | undefined> {
    return this.backend.get(key);
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    if (!options.fromCache || options.revision || !this.covers(prefix)) {
      return this.backend.list(prefix, { ...options, fromCache: false });
    }
    await this.ready;
    const from = options.startKey && options.startKey > prefix ? options.startKey : prefix;
    const all = [...this.objects.values()]
      .filter((kv) => kv.key.startsWith(prefix) && kv.key >= from)
      .sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
    const limit = options.limit && options.limit > 0 ? options.limit : all.length;
    const items = all.slice(0, limit);
    return {
      items,
      revision: this.revision,
      more: all.length > items.length,
      remaining: all.length - items.length,
    };
  }

  create(key: string, value: Uint8Array): Promise<KV> {
    return this.backend.create(key, value);
  }

  update(key: string, value: Uint8Array, expectedModRevision?: number): Promise<KV> {
    return this.backend.update(key, value, expectedModRevision);
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
    for (const kv of snapshot.items) this.objects.set(kv.key, kv);
    this.revision = snapshot.revision;
    this.window.dropThrough(Number.MAX_SAFE_INTEGER);
    this.window.startRevision = snapshot.revision;
    if (this.closed) return;
    this.source = await this.backend.watch(
      this.options.prefix,
      snapshot.revision,
      (event) => generation === this.generation && this.apply(event),
      (error) => generation === this.generation && this.restart(error),
    );
  }

  private apply(event: WatchEvent): void {
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
