import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { KV, ListOptions, ListResult, Storage, WatchEvent, WatchHandle, WatchOptions } from '../storage';
import { StorageError } from '../storage-error';
import {
  Outbox,
  unpackError,
  unpackEvents,
  unpackResult,
  type CallOp,
  type FromThread,
  type ToThread,
} from './thread-wire';

/** Which backend the storage thread builds: a module's exported class and its constructor's options. */
export interface ThreadBackend {
  /** Absolute path of the module (compiled JavaScript) exporting the backend class. */
  module: string;
  exportName: string;
  /** The constructor's options; they are copied to the thread, so they hold data only. */
  options: unknown;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface ThreadWatchTarget {
  onEvent: (event: WatchEvent) => void;
  onError: (error: Error) => void;
  onBookmark?: (revision: number) => void;
}

/**
 * The compiled JavaScript of a module of this package: itself when running compiled, else (tests
 * running the TypeScript sources) its counterpart under `dist/`, which the build writes.
 */
export function compiledModule(path: string): string {
  if (!path.endsWith('.ts')) return path;
  const compiled = path.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2').replace(/\.ts$/, '.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} not found: build the package first`);
  return compiled;
}

/**
 * A backend that runs in its own worker thread: the {@link Storage} calls cross to the thread as
 * messages and come back as results, watch events as batches. A remote store's client (etcd's gRPC)
 * costs more CPU per call than the apiserver's own work on the request, and here it runs on another
 * core, beside the request handling instead of on its thread.
 *
 * When the thread dies, calls in flight fail with `Unavailable` (the outcome of a write unknown, as
 * when a connection drops), every watch ends with `Unavailable`, and the next call starts a new
 * thread.
 */
export class ThreadStorage implements Storage {
  private worker: Worker | undefined;
  private outbox: Outbox<ToThread> | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly watches = new Map<number, ThreadWatchTarget>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly backend: ThreadBackend) {
    this.thread();
  }

  get(key: string): Promise<KV | undefined> {
    return this.call('get', key) as Promise<KV | undefined>;
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.call('list', prefix, options) as Promise<ListResult>;
  }

  create(key: string, value: Uint8Array): Promise<KV> {
    return this.call('create', key, value) as Promise<KV>;
  }

  update(key: string, value: Uint8Array, expectedModRevision?: number): Promise<KV> {
    return this.call('update', key, value, expectedModRevision) as Promise<KV>;
  }

  delete(key: string, expectedModRevision?: number): Promise<KV> {
    return this.call('delete', key, expectedModRevision) as Promise<KV>;
  }

  compact(revision: number): Promise<void> {
    return this.call('compact', revision) as Promise<void>;
  }

  currentRevision(): Promise<number> {
    return this.call('currentRevision') as Promise<number>;
  }

  compactedRevision(): Promise<number> {
    return this.call('compactedRevision') as Promise<number>;
  }

  async watch(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    options: WatchOptions = {},
  ): Promise<WatchHandle> {
    const watch = this.nextId++;
    this.watches.set(watch, { onEvent, onError, onBookmark: options.onBookmark });
    const stop = () => {
      if (this.watches.delete(watch)) this.outbox?.send({ op: 'unwatch', watch });
    };
    try {
      await this.request((id) => ({
        id,
        op: 'watch',
        watch,
        prefix,
        fromRevision,
        bookmarks: options.onBookmark !== undefined,
      }));
    } catch (error) {
      this.watches.delete(watch);
      throw error;
    }
    return { stop };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    try {
      await this.request((id) => ({ id, op: 'close' }), true);
    } finally {
      this.worker = undefined;
      this.outbox = undefined;
      await worker.terminate();
      this.fail(StorageError.unavailable('storage closed'));
    }
  }

  private call(op: CallOp, ...args: unknown[]): Promise<unknown> {
    // a value goes as a copy of its own bytes, moved to the thread (a pooled Buffer posted as it is
    // clones its whole slab)
    const sent = args.map((a) => (a instanceof Uint8Array ? new Uint8Array(a) : a));
    return this.request((id) => ({ id, op, args: sent }));
  }

  private request(message: (id: number) => ToThread, closing = false): Promise<unknown> {
    if (this.closed && !closing) return Promise.reject(StorageError.unavailable('storage closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.thread().send(message(id));
    });
  }

  private thread(): Outbox<ToThread> {
    if (this.worker && this.outbox) return this.outbox;
    const worker = new Worker(compiledModule(require.resolve('./storage-thread')), {
      workerData: { ...this.backend, module: compiledModule(this.backend.module) },
    });
    worker.on('message', (batch: FromThread[]) => {
      for (const message of batch) this.receive(message);
    });
    worker.on('error', (error) => this.died(worker, error));
    worker.on('exit', (code) => this.died(worker, new Error(`storage thread exited with code ${code}`)));
    this.worker = worker;
    this.outbox = new Outbox((batch, transfer) => worker.postMessage(batch, transfer));
    return this.outbox;
  }

  private receive(message: FromThread): void {
    if ('id' in message) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.ok) pending?.resolve(unpackResult(message.result));
      else pending?.reject(unpackError(message.error));
      return;
    }
    const target = this.watches.get(message.watch);
    if (!target) return;
    if ('events' in message) {
      for (const event of unpackEvents(message.events)) {
        // a callback may stop the watch: nothing is delivered after that
        if (!this.watches.has(message.watch)) return;
        target.onEvent(event);
      }
    } else if ('bookmark' in message) {
      target.onBookmark?.(message.bookmark);
    } else {
      this.watches.delete(message.watch);
      target.onError(unpackError(message.error));
    }
  }

  private died(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.outbox = undefined;
    this.fail(StorageError.unavailable(`storage thread: ${error.message}`, error));
  }

  /** Fails every call in flight and ends every watch. */
  private fail(error: StorageError): void {
    const pending = [...this.pending.values()];
    const watches = [...this.watches.values()];
    this.pending.clear();
    this.watches.clear();
    for (const p of pending) p.reject(error);
    for (const w of watches) w.onError(error);
  }
}
