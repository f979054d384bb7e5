import { StorageError } from '../storage-error';

/** True when etcd refused a read or watch because the revision has been compacted. */
export function isEtcdCompacted(error: unknown): boolean {
  return error instanceof Error && error.message.includes('required revision has been compacted');
}

/** True when etcd refused a read at a revision it has not reached. */
export function isEtcdFutureRevision(error: unknown): boolean {
  return error instanceof Error && error.message.includes('required revision is a future revision');
}

/**
 * Maps an error of the etcd client to a {@link StorageError}. `revision` is the revision the call
 * asked for, when it asked for one. Anything that is not a refusal about revisions means the
 * cluster could not answer: `Unavailable`, with the original error as the cause.
 */
export function fromEtcdError(error: unknown, revision = 0, currentRevision = 0): StorageError {
  if (error instanceof StorageError) return error;
  if (isEtcdCompacted(error)) {
    return new StorageError('Compacted', `revision ${revision} has been compacted`, {
      revision,
      cause: error,
    });
  }
  if (isEtcdFutureRevision(error)) return StorageError.futureRevision(revision, currentRevision);
  const message = error instanceof Error ? error.message : String(error);
  return StorageError.unavailable(`etcd: ${message}`, error);
}
