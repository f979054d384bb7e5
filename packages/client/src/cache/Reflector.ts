import type { Status } from '@orch/api';
import type { ListOptions } from '../typed/options';
import { isExpiredOrGone, isTooManyRequests, StatusError } from '../rest/StatusError';
import type { KubeObject } from '../types';
import { Backoff, type BackoffOptions } from '../util/Backoff';
import { sleep } from '../util/sleep';
import type { WatchStream } from '../watch/WatchStream';
import type { ListerWatcher } from './ListerWatcher';

/** Where a reflector puts what it lists and watches. */
export interface ReflectorStore<T> {
  replace(items: T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  /** Name used in error messages. */
  name?: string;
  /** Items per list chunk (limit); 0 lists everything at once. */
  pageSize?: number;
  /** Watch timeouts are picked at random in [min, 2×min) seconds; 300 (5 minutes) by default. */
  minWatchTimeoutSeconds?: number;
  backoff?: BackoffOptions;
  /** A watch ending this fast without any event counts as a failure. */
  minWatchDurationMs?: number;
  /** Told about every list/watch failure (the reflector retries by itself). */
  onError?: (err: unknown) => void;
}

class ErrorEvent extends Error {
  constructor(readonly statusError: StatusError) {
    super(statusError.message);
  }
}

/** Network errors after which the watch is retried without relisting. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND)$/.test(code)
  );
}

/**
 * Keeps a store in step with a collection: lists (in chunks), then watches from the list's
 * resourceVersion, re-watching from the last seen version when a watch ends and relisting when
 * the version is gone (410) or the watch fails. Failures back off exponentially.
 */
export class Reflector<T extends KubeObject> {
  private lastSyncRv = '';
  private rvUnavailable = false;
  private stopped = false;
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private currentWatch: WatchStream<T> | undefined;
  private readonly backoff: Backoff;
  private readonly pageSize: number;
  private readonly minWatchTimeout: number;
  private readonly minWatchDurationMs: number;

  constructor(
    private readonly lw: ListerWatcher<T>,
    private readonly store: ReflectorStore<T>,
    private readonly opts: ReflectorOptions = {},
  ) {
    this.backoff = new Backoff(opts.backoff);
    this.pageSize = opts.pageSize ?? 500;
    this.minWatchTimeout = opts.minWatchTimeoutSeconds ?? 300;
    this.minWatchDurationMs = opts.minWatchDurationMs ?? 1000;
  }

  /** The resourceVersion of the last list, watch event or bookmark. */
  lastSyncResourceVersion(): string {
    return this.lastSyncRv;
  }

  /** Starts the list/watch loop; resolves when stopped. Calling it twice returns the same promise. */
  run(): Promise<void> {
    this.running ??= this.loop();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.currentWatch?.stop();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (err) {
        if (this.stopped) {
          break;
        }
        this.report(err);
      }
      if (this.stopped) {
        break;
      }
      try {
        await sleep(this.backoff.next(), this.abort.signal);
      } catch {
        break;
      }
    }
  }

  private report(err: unknown): void {
    if (this.opts.onError) {
      this.opts.onError(err);
    }
  }

  /** "" after the version became unavailable (consistent read), "0" initially (any cached state). */
  private relistResourceVersion(): string {
    if (this.rvUnavailable) {
      return '';
    }
    return this.lastSyncRv === '' ? '0' : this.lastSyncRv;
  }

  private async list(): Promise<void> {
    let rv = this.relistResourceVersion();
    let items: T[] = [];
    let listRv = '';
    let opts: ListOptions = { resourceVersion: rv, ...(this.pageSize > 0 ? { limit: this.pageSize } : {}) };
    for (;;) {
      let page;
      try {
        page = await this.lw.list(opts, this.abort.signal);
      } catch (err) {
        if (!isExpiredOrGone(err)) {
          throw err;
        }
        if (opts.continue) {
          // The continue token expired: fall back to one full list.
          opts = { resourceVersion: rv };
        } else if (rv !== '') {
          // The requested version is too old: read the latest state instead.
          this.rvUnavailable = true;
          rv = '';
          opts = { resourceVersion: rv, ...(this.pageSize > 0 ? { limit: this.pageSize } : {}) };
        } else {
          throw err;
        }
        items = [];
        listRv = '';
        continue;
      }
      if (this.stopped) {
        return;
      }
      items.push(...page.items);
      if (!listRv) {
        listRv = page.metadata?.resourceVersion ?? '';
      }
      const next = page.metadata?.continue;
      if (!next) {
        break;
      }
      opts = { limit: this.pageSize, continue: next };
    }
    this.store.replace(items, listRv);
    this.lastSyncRv = listRv;
    this.rvUnavailable = false;
  }

  private async listAndWatch(): Promise<void> {
    await this.list();
    while (!this.stopped) {
      const timeoutSeconds = Math.floor(this.minWatchTimeout * (1 + Math.random()));
      let w: WatchStream<T>;
      try {
        w = await this.lw.watch(
          {
            resourceVersion: this.lastSyncRv,
            allowWatchBookmarks: true,
            timeoutSeconds,
          },
          this.abort.signal,
        );
      } catch (err) {
        if (isExpiredOrGone(err)) {
          this.rvUnavailable = true;
          throw err;
        }
        if (isTooManyRequests(err) || isConnectionError(err)) {
          this.report(err);
          await sleep(this.backoff.next(), this.abort.signal);
          continue;
        }
        throw err;
      }
      if (this.stopped) {
        w.stop();
        return;
      }
      await this.consume(w);
    }
  }

  /** Applies a watch's events; returns when it ends normally, throws when it must relist. */
  private async consume(w: WatchStream<T>): Promise<void> {
    this.currentWatch = w;
    const started = Date.now();
    let events = 0;
    try {
      for await (const event of w) {
        if (event.type === 'ERROR') {
          throw new ErrorEvent(new StatusError(event.object as Status));
        }
        events++;
        const rv = event.object.metadata?.resourceVersion;
        switch (event.type) {
          case 'ADDED':
            this.store.add(event.object);
            break;
          case 'MODIFIED':
            this.store.update(event.object);
            break;
          case 'DELETED':
            this.store.delete(event.object);
            break;
          case 'BOOKMARK':
            break;
        }
        if (rv) {
          this.lastSyncRv = rv;
        }
      }
    } catch (err) {
      w.stop();
      if (this.stopped) {
        return;
      }
      if (err instanceof ErrorEvent) {
        if (isExpiredOrGone(err.statusError)) {
          this.rvUnavailable = true;
        }
        throw err.statusError;
      }
      // The connection broke: re-watch from the last version after a pause.
      this.report(err);
      await sleep(this.backoff.next(), this.abort.signal).catch(() => undefined);
      return;
    } finally {
      this.currentWatch = undefined;
    }
    if (!this.stopped && events === 0 && Date.now() - started < this.minWatchDurationMs) {
      throw new Error(
        `${this.opts.name ?? 'reflector'}: very short watch: ended after ${Date.now() - started} ms with no events`,
      );
    }
  }
}
