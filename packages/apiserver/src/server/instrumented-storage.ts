import type { Histogram } from 'prom-client';
import type {
  KV,
  ListOptions,
  ListResult,
  Storage,
  WatchEvent,
  WatchHandle,
  WatchOptions,
} from '../storage/storage';

/** Decorates a storage backend with request latency metrics (etcd_request_duration_seconds). */
export class InstrumentedStorage implements Storage {
  constructor(
    private readonly inner: Storage,
    private readonly latency: Histogram<'operation' | 'type'>,
  ) {}

  private async timed<T>(operation: string, key: string, fn: () => Promise<T>): Promise<T> {
    const end = this.latency.startTimer({ operation, type: typeOf(key) });
    try {
      return await fn();
    } finally {
      end();
    }
  }

  get(key: string): Promise<KV | undefined> {
    return this.timed('get', key, () => this.inner.get(key));
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.timed('list', prefix, () => this.inner.list(prefix, options));
  }

  create(key: string, value: Uint8Array): Promise<KV> {
    return this.timed('create', key, () => this.inner.create(key, value));
  }

  update(key: string, value: Uint8Array, expectedModRevision?: number): Promise<KV> {
    return this.timed('update', key, () => this.inner.update(key, value, expectedModRevision));
  }

  delete(key: string, expectedModRevision?: number): Promise<KV> {
    return this.timed('delete', key, () => this.inner.delete(key, expectedModRevision));
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

/** `/registry/apps/deployments/ns/name` → `deployments.apps`. */
function typeOf(key: string): string {
  const [, , group, resource] = key.split('/');
  if (!resource) return group ?? '';
  return group === 'core' ? resource : `${resource}.${group}`;
}
