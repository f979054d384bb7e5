import type { Storage, WatchEvent, WatchHandle } from '../storage';

/** Records what a watch delivers, for tests. */
export class WatchRecorder {
  readonly events: WatchEvent[] = [];
  readonly errors: Error[] = [];
  readonly bookmarks: number[] = [];
  handle: WatchHandle | undefined;

  static async start(storage: Storage, prefix: string, fromRevision: number, bookmarks = false) {
    const recorder = new WatchRecorder();
    recorder.handle = await storage.watch(
      prefix,
      fromRevision,
      (event) => recorder.events.push(event),
      (error) => recorder.errors.push(error),
      bookmarks ? { onBookmark: (revision) => recorder.bookmarks.push(revision) } : {},
    );
    return recorder;
  }

  /** Waits until `count` events arrived (or an error did); fails after `timeoutMs`. */
  async waitForEvents(count: number, timeoutMs = 10_000): Promise<WatchEvent[]> {
    await waitUntil(
      () => this.events.length >= count || this.errors.length > 0,
      timeoutMs,
      () => {
        return `expected ${count} events, got ${this.events.length}`;
      },
    );
    if (this.errors.length > 0 && this.events.length < count) throw this.errors[0];
    return this.events;
  }

  async waitForError(timeoutMs = 10_000): Promise<Error> {
    await waitUntil(
      () => this.errors.length > 0,
      timeoutMs,
      () => 'expected a watch error',
    );
    return this.errors[0];
  }

  stop(): void {
    this.handle?.stop();
  }
}

/** Polls `condition` every few milliseconds until it holds; rejects after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs: number, describe: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
