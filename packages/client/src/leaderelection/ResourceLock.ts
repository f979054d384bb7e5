import type { LeaderElectionRecord } from './LeaderElectionRecord';

/** The record read from a lock and its raw form (compared to notice changes). */
export interface LockState {
  record: LeaderElectionRecord;
  raw: string;
}

/**
 * A lock object holding a LeaderElectionRecord. `get` remembers the object read so `update` writes
 * it back with its resourceVersion (optimistic concurrency: a concurrent writer makes it fail with
 * Conflict). `get` rejects with a NotFound StatusError when the object does not exist.
 */
export interface ResourceLock {
  get(signal?: AbortSignal): Promise<LockState>;
  create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  /** The candidate's identity. */
  identity(): string;
  /** `namespace/name` of the lock, for logs. */
  describe(): string;
}

/** Where a lock lives and who takes it. */
export interface LockConfig {
  namespace: string;
  name: string;
  identity: string;
}
