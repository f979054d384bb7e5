import type { KV, Storage } from './storage';
import { StorageError, isStorageError } from './storage-error';

export interface GuaranteedUpdateOptions {
  /** Create the key when it is absent (`tryUpdate` then receives `undefined`). Default false. */
  ignoreNotFound?: boolean;
  /** Give up with the last `Conflict` error after this many attempts. Default 100. */
  maxAttempts?: number;
  /** A recent read of the key to try first, saving one round trip when it is still current. */
  cached?: KV;
}

/**
 * Read-modify-write with optimistic concurrency, the way Kubernetes' storage does it: read the key,
 * let `tryUpdate` compute the new value from the current one, write it guarded by the modRevision
 * that was read, and start over from a fresh read when another writer got there first.
 *
 * `tryUpdate` may throw to abort (the error propagates unchanged) and may return `undefined` to
 * leave the key as it is (the current KV is returned without a write). It must be free of side
 * effects, since it can run several times.
 */
export async function guaranteedUpdate(
  storage: Storage,
  key: string,
  tryUpdate: (current: KV | undefined) => Uint8Array | undefined | Promise<Uint8Array | undefined>,
  options: GuaranteedUpdateOptions = {},
): Promise<KV> {
  const maxAttempts = options.maxAttempts ?? 100;
  let current: KV | undefined = options.cached ?? (await storage.get(key));
  let lastError: StorageError | undefined;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    if (current === undefined && !options.ignoreNotFound) throw StorageError.notFound(key);
    const next = await tryUpdate(current);
    if (next === undefined) {
      if (current === undefined) throw StorageError.notFound(key);
      return current;
    }
    try {
      return current === undefined
        ? await storage.create(key, next)
        : await storage.update(key, next, current.modRevision);
    } catch (error) {
      if (isStorageError(error, 'Conflict')) {
        lastError = error;
        current = error.details.current;
      } else if (isStorageError(error, 'KeyExists') || isStorageError(error, 'NotFound')) {
        lastError = error;
        current = await storage.get(key);
      } else {
        throw error;
      }
    }
  }
  throw lastError ?? StorageError.unavailable(`guaranteedUpdate of ${key} made no attempt`);
}
