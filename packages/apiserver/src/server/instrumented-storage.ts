import type { Histogram } from 'prom-client';
import type { KV, ListOptions, ListResult, Storage } from '../storage/storage';
import { ForwardingStorage } from '../storage/forwarding-storage';

/** Decorates a storage backend with request latency metrics (etcd_request_duration_seconds). */
export class InstrumentedStorage extends ForwardingStorage {
  constructor(
    inner: Storage,
    private readonly latency: Histogram<'operation' | 'type'>,
  ) {
    super(inner);
  }

  private async timed<T>(operation: string, key: string, fn: () => Promise<T>): Promise<T> {
    const end = this.latency.startTimer({ operation, type: typeOf(key) });
    try {
      return await fn();
    } finally {
      end();
    }
  }

  override get(key: string): Promise<KV | undefined> {
    return this.timed('get', key, () => this.inner.get(key));
  }

  override list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.timed('list', prefix, () => this.inner.list(prefix, options));
  }

  override create(key: string, value: Uint8Array): Promise<KV> {
    return this.timed('create', key, () => this.inner.create(key, value));
  }

  override update(key: string, value: Uint8Array, expectedModRevision?: number): Promise<KV> {
    return this.timed('update', key, () => this.inner.update(key, value, expectedModRevision));
  }

  override delete(key: string, expectedModRevision?: number): Promise<KV> {
    return this.timed('delete', key, () => this.inner.delete(key, expectedModRevision));
  }
}

/** `/registry/apps/deployments/ns/name` → `deployments.apps`. */
function typeOf(key: string): string {
  const [, , group, resource] = key.split('/');
  if (!resource) return group ?? '';
  return group === 'core' ? resource : `${resource}.${group}`;
}
