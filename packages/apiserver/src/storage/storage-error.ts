import type { KV } from './storage';

/**
 * What went wrong, in terms a caller can act on:
 * - `NotFound`: the key does not exist.
 * - `KeyExists`: create of a key that exists.
 * - `Conflict`: the key's modRevision differs from the expected one (`current` holds the live KV).
 * - `Compacted`: the requested revision's history is gone (410 Gone / Expired).
 * - `FutureRevision`: a read at a revision the store has not reached yet.
 * - `Unavailable`: the backend cannot be reached or was closed; the outcome of a write is unknown.
 */
export type StorageErrorCode =
  'NotFound' | 'KeyExists' | 'Conflict' | 'Compacted' | 'FutureRevision' | 'Unavailable';

export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    readonly details: { key?: string; current?: KV; revision?: number; cause?: unknown } = {},
  ) {
    super(message);
  }

  static notFound(key: string): StorageError {
    return new StorageError('NotFound', `key not found: ${key}`, { key });
  }

  static keyExists(key: string): StorageError {
    return new StorageError('KeyExists', `key already exists: ${key}`, { key });
  }

  static conflict(key: string, current: KV, expectedModRevision: number): StorageError {
    return new StorageError(
      'Conflict',
      `modRevision of ${key} is ${current.modRevision}, expected ${expectedModRevision}`,
      { key, current },
    );
  }

  static compacted(revision: number, compactedRevision: number): StorageError {
    return new StorageError(
      'Compacted',
      `revision ${revision} has been compacted (compacted revision ${compactedRevision})`,
      { revision },
    );
  }

  static futureRevision(revision: number, currentRevision: number): StorageError {
    return new StorageError(
      'FutureRevision',
      `revision ${revision} is newer than the current revision ${currentRevision}`,
      { revision },
    );
  }

  static unavailable(message: string, cause?: unknown): StorageError {
    return new StorageError('Unavailable', message, { cause });
  }
}

/** True when `error` is a {@link StorageError} with the given code. */
export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof StorageError && (code === undefined || error.code === code);
}
