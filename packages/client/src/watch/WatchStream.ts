import type { Readable } from 'node:stream';
import type { WatchEvent, WatchEventType } from '../types';
import type { Framer } from './Framer';

const eventTypes = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);
const HIGH_WATER = 1000;

/** Decodes one frame into a watch event. */
export type WatchEventDecoder<T> = (frame: Buffer) => WatchEvent<T>;

/** Checks that a decoded frame has the watch event shape `{type, object}`. */
export function asWatchEvent<T>(value: unknown): WatchEvent<T> {
  const ev = value as { type?: unknown; object?: unknown };
  if (typeof ev !== 'object' || ev === null || !eventTypes.has(ev.type as WatchEventType)) {
    throw new Error(`invalid watch event: ${JSON.stringify(value)?.slice(0, 200)}`);
  }
  if (typeof ev.object !== 'object' || ev.object === null) {
    throw new Error(`watch event ${String(ev.type)} has no object`);
  }
  return { type: ev.type as WatchEventType, object: ev.object as T };
}

type Waiter<T> = {
  resolve: (r: IteratorResult<WatchEvent<T>>) => void;
  reject: (err: unknown) => void;
};

/**
 * The events of one watch request. Consume it with `for await`, or with `forEach(callback)`.
 * `stop()` aborts the request and ends iteration without error. A broken connection or an
 * undecodable frame ends iteration with that error.
 */
export class WatchStream<T> implements AsyncIterable<WatchEvent<T>> {
  private readonly queue: WatchEvent<T>[] = [];
  private waiter: Waiter<T> | undefined;
  private ended = false;
  private failure: unknown;
  private stopped = false;

  constructor(
    private readonly source: Readable,
    framer: Framer,
    private readonly decode: WatchEventDecoder<T>,
    private readonly cancel: () => void,
  ) {
    source.on('data', (chunk: Buffer) => this.onFrames(() => framer.push(chunk)));
    source.on('end', () => {
      this.onFrames(() => framer.flush());
      this.finish();
    });
    source.on('error', (err) => this.finish(err));
    source.on('close', () => this.finish());
  }

  /** True once stop() was called. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Aborts the underlying request; pending and future reads end. */
  stop(): void {
    if (this.stopped) {
      return;
    }
    this.stopped = true;
    this.queue.length = 0;
    this.finish();
    this.cancel();
  }

  private onFrames(next: () => Buffer[]): void {
    if (this.ended) {
      return;
    }
    let frames: Buffer[];
    try {
      frames = next();
      for (const frame of frames) {
        this.push(this.decode(frame));
      }
    } catch (err) {
      this.finish(err);
      this.cancel();
    }
  }

  private push(event: WatchEvent<T>): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve({ value: event, done: false });
      return;
    }
    this.queue.push(event);
    if (this.queue.length >= HIGH_WATER) {
      this.source.pause();
    }
  }

  private finish(err?: unknown): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    if (err !== undefined && !this.stopped) {
      this.failure = err;
    }
    const w = this.waiter;
    this.waiter = undefined;
    if (w) {
      if (this.failure !== undefined) {
        w.reject(this.failure);
      } else {
        w.resolve({ value: undefined, done: true });
      }
    }
  }

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    const event = this.queue.shift();
    if (event) {
      if (this.queue.length < HIGH_WATER / 2 && this.source.isPaused()) {
        this.source.resume();
      }
      return Promise.resolve({ value: event, done: false });
    }
    if (this.ended) {
      if (this.failure !== undefined) {
        const failure = this.failure;
        this.failure = undefined;
        return Promise.reject(failure);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  /** Calls `onEvent` for every event; resolves when the stream ends, rejects on a stream error. */
  async forEach(onEvent: (event: WatchEvent<T>) => void | Promise<void>): Promise<void> {
    for (;;) {
      const r = await this.next();
      if (r.done) {
        return;
      }
      await onEvent(r.value);
    }
  }
}
