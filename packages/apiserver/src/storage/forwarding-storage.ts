import type {
  KV,
  ListOptions,
  ListResult,
  Storage,
  WatchEvent,
  WatchHandle,
  WatchOptions,
  WriteOptions,
} from './storage';

/**
 * A storage decorator's base: every operation goes to the inner storage. Decorators (metrics, the
 * service range allocator) override only what they add to.
 */
export class ForwardingStorage implements Storage {
  /** Present when the inner storage has it. */
  readonly changedAfter?: (prefix: string, revision: number) => Promise<boolean>;
  /** Present when the inner storage has it. */
  readonly cached?: (key: string) => Promise<KV | undefined>;

  constructor(protected readonly inner: Storage) {
    if (inner.changedAfter) this.changedAfter = (prefix, revision) => inner.changedAfter!(prefix, revision);
    if (inner.cached) this.cached = (key) => inner.cached!(key);
  }

  get(key: string): Promise<KV | undefined> {
    return this.inner.get(key);
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.inner.list(prefix, options);
  }

  create(key: string, value: Uint8Array, options?: WriteOptions): Promise<KV> {
    return this.inner.create(key, value, options);
  }

  update(key: string, value: Uint8Array, expectedModRevision?: number, options?: WriteOptions): Promise<KV> {
    return this.inner.update(key, value, expectedModRevision, options);
  }

  delete(key: string, expectedModRevision?: number): Promise<KV> {
    return this.inner.delete(key, expectedModRevision);
  }

  watch(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    options?: WatchOptions,
  ): Promise<WatchHandle> {
    return this.inner.watch(prefix, fromRevision, onEvent, onError, options);
  }

  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
