import type { WatchEvent, WatchHandle, WatchOptions } from './storage';

type Item = { event: WatchEvent } | { bookmark: number };

/**
 * In-process fan-out of watch events to many watchers, each with its own prefix, starting
 * revision and queue. Delivery is asynchronous (one microtask after `publish` drains every watcher
 * with events queued), so a callback that writes to the store, or stops a watch, never reorders or
 * re-enters delivery to other watchers.
 * Each watcher sees its events in the order they were published, each exactly once.
 */
export class WatchHub {
  private readonly watchers = new Set<HubWatcher>();
  /** Watchers with something to deliver, drained together by one microtask. */
  private due: HubWatcher[] = [];
  private readonly schedule = (watcher: HubWatcher): void => {
    if (this.due.push(watcher) === 1) queueMicrotask(this.drainDue);
  };
  private readonly drainDue = (): void => {
    const due = this.due;
    this.due = [];
    for (const watcher of due) {
      try {
        watcher.drain();
      } catch (error) {
        // a throwing onError fails on its own, as a microtask of its own would; the others go on
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  /** Number of live watchers. */
  get size(): number {
    return this.watchers.size;
  }

  /**
   * Registers a watcher for keys under `prefix` with revisions after `fromRevision`. `backlog`
   * holds the already-committed events to replay first (filtered the same way). Events published
   * later are delivered after the backlog.
   */
  add(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    options: WatchOptions = {},
    backlog: Iterable<WatchEvent> = [],
  ): WatchHandle {
    const watcher = new HubWatcher(
      prefix,
      fromRevision,
      onEvent,
      onError,
      options.onBookmark,
      () => this.watchers.delete(watcher),
      this.schedule,
    );
    for (const event of backlog) watcher.offer(event);
    this.watchers.add(watcher);
    return { stop: () => watcher.stop() };
  }

  /** Queues `event` to every watcher it concerns. Events must be published in revision order. */
  publish(event: WatchEvent): void {
    for (const watcher of this.watchers) watcher.offer(event);
  }

  /** Queues a bookmark at `revision` to every watcher that asked for bookmarks. */
  bookmark(revision: number): void {
    for (const watcher of this.watchers) watcher.offerBookmark(revision);
  }

  /** Ends every watcher with `error` (delivered after what is already queued). */
  failAll(error: Error): void {
    for (const watcher of [...this.watchers]) watcher.fail(error);
  }
}

class HubWatcher {
  private queue: Item[] = [];
  private head = 0;
  private scheduled = false;
  private stopped = false;
  private failure: Error | undefined;
  /** Revision of the last event queued; nothing at or below it is queued again. */
  private revision: number;

  constructor(
    private readonly prefix: string,
    fromRevision: number,
    private readonly onEvent: (event: WatchEvent) => void,
    private readonly onError: (error: Error) => void,
    private readonly onBookmark: ((revision: number) => void) | undefined,
    private readonly detach: () => void,
    private readonly enqueue: (watcher: HubWatcher) => void,
  ) {
    this.revision = fromRevision;
  }

  offer(event: WatchEvent): void {
    if (this.stopped || this.failure || event.modRevision <= this.revision) return;
    if (!event.key.startsWith(this.prefix)) return;
    this.revision = event.modRevision;
    this.queue.push({ event });
    this.schedule();
  }

  offerBookmark(revision: number): void {
    if (this.stopped || this.failure || !this.onBookmark) return;
    this.queue.push({ bookmark: Math.max(revision, this.revision) });
    this.schedule();
  }

  fail(error: Error): void {
    if (this.stopped || this.failure) return;
    this.failure = error;
    this.detach();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.queue = [];
    this.detach();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.enqueue(this);
  }

  /** Delivers what is queued (called by the hub's microtask). */
  drain(): void {
    this.scheduled = false;
    while (!this.stopped && this.head < this.queue.length) {
      const item = this.queue[this.head++];
      try {
        if ('event' in item) this.onEvent(item.event);
        else this.onBookmark?.(item.bookmark);
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
        this.queue = [];
        this.head = 0;
        break;
      }
    }
    if (this.stopped) return;
    this.queue = [];
    this.head = 0;
    if (this.failure) {
      this.stopped = true;
      this.detach();
      this.onError(this.failure);
    }
  }
}

/** A watch that ends with `error` right away (asynchronously), e.g. one asked for a compacted revision. */
export function failedWatch(onError: (error: Error) => void, error: Error): WatchHandle {
  let stopped = false;
  queueMicrotask(() => {
    if (!stopped) onError(error);
  });
  return {
    stop: () => {
      stopped = true;
    },
  };
}
