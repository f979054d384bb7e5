import type { KubeObject } from '../types';
import { Indexer, metaNamespaceIndexFunc, NAMESPACE_INDEX, type Indexers } from './Indexer';
import { DeletedFinalStateUnknown, metaNamespaceKeyFunc, type KeyFunc } from './keyFunc';
import { Lister } from './Lister';
import type { ListerWatcher } from './ListerWatcher';
import { Reflector, type ReflectorOptions, type ReflectorStore } from './Reflector';

/** Callbacks for changes of the cache. Delete may receive a tombstone when the deletion was missed. */
export interface ResourceEventHandler<T> {
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called on resync and relist with old and new possibly the same object. */
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface HandlerRegistration {
  remove(): void;
}

export interface SharedIndexInformerOptions<T> {
  /** Default resync period for handlers, in ms; 0 disables resync. */
  resyncPeriodMs?: number;
  indexers?: Indexers<T>;
  keyFunc?: KeyFunc<T>;
  reflector?: ReflectorOptions;
  /** Told about errors thrown by handlers; they are otherwise ignored. */
  onHandlerError?: (err: unknown) => void;
}

interface Listener<T> {
  handler: ResourceEventHandler<T>;
  resyncPeriodMs: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A cache of one collection kept current by a reflector, with indexes and event handlers shared
 * by every consumer.
 */
export class SharedIndexInformer<T extends KubeObject> implements ReflectorStore<T> {
  readonly indexer: Indexer<T>;
  private readonly reflector: Reflector<T>;
  private readonly listeners = new Set<Listener<T>>();
  private readonly resyncPeriodMs: number;
  private synced = false;
  private started = false;
  private stopped = false;

  constructor(
    lw: ListerWatcher<T>,
    private readonly opts: SharedIndexInformerOptions<T> = {},
  ) {
    this.indexer = new Indexer<T>(opts.keyFunc ?? (metaNamespaceKeyFunc as KeyFunc<T>), {
      [NAMESPACE_INDEX]: metaNamespaceIndexFunc,
      ...opts.indexers,
    });
    this.resyncPeriodMs = opts.resyncPeriodMs ?? 0;
    this.reflector = new Reflector(lw, this, opts.reflector);
  }

  /** Starts listing and watching. Does nothing after the first call. */
  run(): void {
    if (this.started || this.stopped) {
      return;
    }
    this.started = true;
    void this.reflector.run();
    for (const l of this.listeners) {
      this.startResync(l);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const l of this.listeners) {
      clearInterval(l.timer);
      l.timer = undefined;
    }
    await this.reflector.stop();
  }

  get isStarted(): boolean {
    return this.started;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** True once the first complete list is in the cache. */
  hasSynced(): boolean {
    return this.synced;
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  lister(): Lister<T> {
    return new Lister(this.indexer);
  }

  addIndexers(indexers: Indexers<T>): void {
    this.indexer.addIndexers(indexers);
  }

  /**
   * Registers a handler. When the informer already runs, the handler first receives an add for
   * every object in the cache.
   */
  addEventHandler(handler: ResourceEventHandler<T>, resyncPeriodMs?: number): HandlerRegistration {
    const listener: Listener<T> = {
      handler,
      resyncPeriodMs: resyncPeriodMs ?? this.resyncPeriodMs,
      timer: undefined,
    };
    this.listeners.add(listener);
    if (this.started) {
      for (const obj of this.indexer.list()) {
        this.call(() => handler.onAdd?.(obj, !this.synced));
      }
      this.startResync(listener);
    }
    return {
      remove: () => {
        clearInterval(listener.timer);
        this.listeners.delete(listener);
      },
    };
  }

  private startResync(l: Listener<T>): void {
    if (l.resyncPeriodMs > 0 && !l.timer && !this.stopped) {
      l.timer = setInterval(() => {
        if (!this.synced) {
          return;
        }
        for (const obj of this.indexer.list()) {
          this.call(() => l.handler.onUpdate?.(obj, obj));
        }
      }, l.resyncPeriodMs);
      l.timer.unref();
    }
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.opts.onHandlerError?.(err);
    }
  }

  private notify(fn: (h: ResourceEventHandler<T>) => void): void {
    for (const l of [...this.listeners]) {
      this.call(() => fn(l.handler));
    }
  }

  // ReflectorStore: keeps the cache and tells the handlers.

  replace(items: T[], resourceVersion: string): void {
    const fresh = new Map(items.map((o) => [this.indexer.keyFunc(o), o]));
    const old = new Map(this.indexer.listKeys().map((k) => [k, this.indexer.getByKey(k)!]));
    this.indexer.replace(items, resourceVersion);
    const initial = !this.synced;
    for (const [key, obj] of old) {
      if (!fresh.has(key)) {
        const tombstone = new DeletedFinalStateUnknown(key, obj);
        this.notify((h) => h.onDelete?.(tombstone));
      }
    }
    for (const [key, obj] of fresh) {
      const before = old.get(key);
      if (before !== undefined) {
        this.notify((h) => h.onUpdate?.(before, obj));
      } else {
        this.notify((h) => h.onAdd?.(obj, initial));
      }
    }
    this.synced = true;
  }

  add(obj: T): void {
    const before = this.indexer.get(obj);
    this.indexer.add(obj);
    if (before !== undefined) {
      this.notify((h) => h.onUpdate?.(before, obj));
    } else {
      this.notify((h) => h.onAdd?.(obj, false));
    }
  }

  update(obj: T): void {
    this.add(obj);
  }

  delete(obj: T): void {
    const before = this.indexer.get(obj);
    this.indexer.delete(obj);
    this.notify((h) => h.onDelete?.(before ?? obj));
  }
}
