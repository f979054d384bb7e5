import { parentPort, workerData } from 'node:worker_threads';
import type { Storage, WatchEvent, WatchHandle } from '../storage';
import {
  CALL_OPS,
  Outbox,
  packError,
  packEvents,
  packResult,
  type CallOp,
  type FromThread,
  type ToThread,
} from './thread-wire';
import type { ThreadBackend } from './thread-storage';

/**
 * The storage thread: builds the backend {@link ThreadStorage} names and serves the main thread's
 * calls and watches over the worker port.
 */

const CALLS: ReadonlySet<CallOp> = new Set(CALL_OPS);

const port = parentPort;
if (!port) throw new Error('storage-thread runs as a worker thread');

const backend = workerData as ThreadBackend;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const exported = (require(backend.module) as Record<string, new (options: unknown) => Storage>)[
  backend.exportName
];
const storage = new exported(backend.options);

const outbox = new Outbox<FromThread>((batch, transfer) => port.postMessage(batch, transfer));
const post = (message: FromThread) => outbox.send(message);

/** One watch: events of one tick go out as one message, and only after the watch's own answer. */
class ThreadWatch {
  handle: WatchHandle | undefined;
  private pending: WatchEvent[] = [];
  private started = false;
  private flushing = false;

  constructor(readonly id: number) {}

  event(e: WatchEvent): void {
    this.pending.push(e);
    if (this.started && !this.flushing) {
      this.flushing = true;
      queueMicrotask(() => this.flush());
    }
  }

  start(): void {
    this.started = true;
    this.flush();
  }

  flush(): void {
    this.flushing = false;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    post({ watch: this.id, events: packEvents(events) });
  }
}

const watches = new Map<number, ThreadWatch>();

async function watch(message: Extract<ToThread, { op: 'watch' }>): Promise<void> {
  const w = new ThreadWatch(message.watch);
  watches.set(w.id, w);
  try {
    w.handle = await storage.watch(
      message.prefix,
      message.fromRevision,
      (event) => w.event(event),
      (error) => {
        w.flush();
        watches.delete(w.id);
        post({ watch: w.id, error: packError(error) });
      },
      message.bookmarks
        ? { onBookmark: (revision) => (w.flush(), post({ watch: w.id, bookmark: revision })) }
        : {},
    );
    // stopped while starting
    if (!watches.has(w.id)) w.handle.stop();
    post({ id: message.id, ok: true, result: packResult(undefined) });
    w.start();
  } catch (error) {
    watches.delete(w.id);
    post({ id: message.id, ok: false, error: packError(error) });
  }
}

async function call(id: number, run: () => Promise<unknown>): Promise<void> {
  try {
    post({ id, ok: true, result: packResult(await run()) });
  } catch (error) {
    post({ id, ok: false, error: packError(error) });
  }
}

port.on('message', (batch: ToThread[]) => {
  for (const message of batch) receive(message);
});

function receive(message: ToThread): void {
  switch (message.op) {
    case 'watch':
      void watch(message);
      return;
    case 'unwatch': {
      const w = watches.get(message.watch);
      watches.delete(message.watch);
      w?.handle?.stop();
      return;
    }
    case 'close':
      void call(message.id, async () => {
        for (const w of watches.values()) w.handle?.stop();
        watches.clear();
        await storage.close();
      });
      return;
    default: {
      const { id, op, args } = message;
      if (!CALLS.has(op)) {
        post({ id, ok: false, error: { message: `unknown storage call ${String(op)}` } });
        return;
      }
      const method = storage[op] as (...a: unknown[]) => Promise<unknown>;
      void call(id, () => method.apply(storage, args));
    }
  }
}
