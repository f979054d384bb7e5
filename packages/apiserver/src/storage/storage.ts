/**
 * The storage layer of orch-apiserver.
 *
 * Every backend implements the one narrow {@link Storage} interface below: a flat, ordered key space
 * of opaque byte values with a single, store-wide revision counter that increases by one on every
 * write (as in etcd). An object's `resourceVersion` is the `modRevision` of its key.
 *
 * - Keys are strings such as `/registry/<group>/<resource>/<ns>/<name>`; the registry builds them.
 *   Prefix operations (`list`, `watch`) cover every key that starts with the given string.
 * - `list` can read at a past revision and continue from a key, which is what a chunked list needs
 *   for a consistent snapshot: read the first chunk at the current revision, then read the next
 *   chunks at that same revision starting at the key after the last one returned.
 * - `watch` delivers every change strictly after a revision, in revision order, without gaps.
 *   History older than the compacted revision is gone and asking for it fails with the typed
 *   `Compacted` error (the apiserver answers 410 Gone).
 * - Every failure the caller can act on is a {@link StorageError} with a `code`.
 *
 * Backends: `embedded/` (SQLite, the zero-setup default) and `etcd/` (an etcd cluster). The watch
 * cache in `cacher/` decorates any backend and implements the same interface. All of them pass the
 * suite in `conformance/`.
 */

/** One key with its value and revisions, as stored. */
export interface KV {
  key: string;
  value: Buffer;
  /** Revision of the last write to this key (the object's resourceVersion). */
  modRevision: number;
  /** Revision at which the key was created (unchanged by updates). */
  createRevision: number;
}

export interface ListOptions {
  /**
   * Read the state as it was at this revision. Must be >= the compacted revision (else a
   * `Compacted` error) and <= the current revision (else a `FutureRevision` error). Omitted or 0:
   * read at the current revision.
   */
  revision?: number;
  /** At most this many items (0 or omitted: no limit). */
  limit?: number;
  /** Continue from this key, inclusive. Must start with the prefix to return anything. */
  startKey?: string;
  /**
   * Watch cache only: answer from the in-memory cache without contacting the backend, like
   * `resourceVersion=0` in Kubernetes. The result may be slightly stale; `revision` in the result
   * tells how fresh it is. Backends without a cache ignore the flag and read the latest state.
   */
  fromCache?: boolean;
  /**
   * Only keys and revisions: every item's `value` is empty. Cheaper; the watch cache uses it to find
   * which of the current items it already holds.
   */
  keysOnly?: boolean;
}

export interface ListResult {
  /** Items sorted by key. */
  items: KV[];
  /** The revision the snapshot was read at; pass it back as `revision` to read further chunks. */
  revision: number;
  /** True when further items exist after the last returned one at `revision`. */
  more: boolean;
  /** How many further items exist after the last returned one at `revision`. */
  remaining: number;
}

export interface WriteOptions {
  /**
   * The key is deleted (with a `delete` event, like any delete) about this many seconds after this
   * write, unless written again first; each write sets or clears its own expiry. Backends may delete
   * up to a few seconds late (etcd grants leases a little longer, to share them among writes).
   */
  ttlSeconds?: number;
}

/**
 * A write's value as the Buffer a backend keeps and hands out in its results and events: the caller's
 * bytes themselves, not a copy (see Storage.create).
 */
export function storedValue(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** The time to live a write asks for, in seconds; undefined for none (absent, 0 or less). */
export function timeToLive(options: WriteOptions | undefined): number | undefined {
  const ttl = options?.ttlSeconds;
  return ttl !== undefined && ttl > 0 ? ttl : undefined;
}

export type WatchEventType = 'put' | 'delete';

export interface WatchEvent {
  type: WatchEventType;
  key: string;
  /** For `put`: the new value. For `delete`: the last value the key had before the delete. */
  value: Buffer;
  /** The value before this change (updates and deletes); absent for a create. */
  prevValue?: Buffer;
  /** The revision of this change. */
  modRevision: number;
  /** For `put`: the key's create revision. For `delete`: the create revision of the deleted key. */
  createRevision: number;
}

export interface WatchOptions {
  /**
   * Called now and then with a revision R meaning "every event of this watch up to R has been
   * delivered". Only the watch cache sends bookmarks; callers must not assume any interval, nor
   * that any bookmark is sent at all.
   */
  onBookmark?: (revision: number) => void;
}

export interface WatchHandle {
  /** Stops delivery. No callback runs after `stop()` returns. Idempotent. */
  stop(): void;
}

export interface Storage {
  get(key: string): Promise<KV | undefined>;
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /**
   * Creates the key; `KeyExists` error if it is present. A write's `value` is kept as given, not
   * copied (for create and update): callers must not change it afterwards.
   */
  create(key: string, value: Uint8Array, options?: WriteOptions): Promise<KV>;
  /**
   * Replaces the value of an existing key. `NotFound` if the key is absent; `Conflict` (carrying
   * the current KV) when `expectedModRevision` is given and differs from the key's modRevision.
   */
  update(key: string, value: Uint8Array, expectedModRevision?: number, options?: WriteOptions): Promise<KV>;
  /**
   * Deletes the key and returns its last value; `modRevision` of the result is the revision of
   * the delete. `NotFound` / `Conflict` as for update.
   */
  delete(key: string, expectedModRevision?: number): Promise<KV>;
  /**
   * Watches every key under `prefix` and calls `onEvent` for every change strictly after
   * `fromRevision` (0: from the current revision on), in revision order, never skipping one.
   * The promise resolves once the starting revision is fixed; writes that complete after that are
   * delivered. Failures, including `Compacted` when `fromRevision` is older than the retained
   * history, are reported once through `onError`, after which the watch is stopped.
   */
  watch(
    prefix: string,
    fromRevision: number,
    onEvent: (event: WatchEvent) => void,
    onError: (error: Error) => void,
    options?: WatchOptions,
  ): Promise<WatchHandle>;
  /** Discards history up to and including `revision` (keeps the state at `revision`). */
  compact(revision: number): Promise<void>;
  currentRevision(): Promise<number>;
  /** The newest revision whose history has been discarded (0 if none). */
  compactedRevision(): Promise<number>;
  /**
   * Optional, for backends that can tell cheaply: whether any key under `prefix` was written or
   * deleted after `revision`. The watch cache uses it to serve a list at the current revision from
   * memory when nothing under the prefix changed since the state it holds.
   */
  changedAfter?(prefix: string, revision: number): Promise<boolean>;
  /**
   * Watch cache only: the key as the cache holds it, possibly slightly stale; undefined when the
   * cache does not hold it. A read-modify-write starts from it (as Kubernetes' cacher passes its
   * object to GuaranteedUpdate) and reads the backend only when the guarded write finds it stale.
   */
  cached?(key: string): Promise<KV | undefined>;
  /** Stops background work and watches and releases the backend. */
  close(): Promise<void>;
}
