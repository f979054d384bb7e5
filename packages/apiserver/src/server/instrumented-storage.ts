import type { Histogram } from 'prom-client';
import type { APIServerMetrics } from './apiserver-metrics';
import type { KV, ListOptions, ListResult, Storage, WriteOptions } from '../storage/storage';
import { ForwardingStorage } from '../storage/forwarding-storage';

/** Decorates a storage backend with request latency metrics (etcd_request_duration_seconds). */
export class InstrumentedStorage extends ForwardingStorage {
  constructor(
    inner: Storage,
    private readonly latency: Histogram<'operation' | 'type'>,
    private readonly metrics?: Pick<APIServerMetrics, 'child'>,
  ) {
    super(inner);
  }

  private async timed<T>(operation: string, key: string, fn: () => Promise<T>): Promise<T> {
    const type = typeOf(key);
    const labels = { operation, type };
    const end = this.metrics
      ? this.metrics.child(`etcd\0${operation}\0${type}`, () => this.latency.labels(labels)).startTimer()
      : this.latency.startTimer(labels);
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

  override create(key: string, value: Uint8Array, options?: WriteOptions): Promise<KV> {
    return this.timed('create', key, () => this.inner.create(key, value, options));
  }

  override update(
    key: string,
    value: Uint8Array,
    expectedModRevision?: number,
    options?: WriteOptions,
  ): Promise<KV> {
    return this.timed('update', key, () => this.inner.update(key, value, expectedModRevision, options));
  }

  override delete(key: string, expectedModRevision?: number): Promise<KV> {
    return this.timed('delete', key, () => this.inner.delete(key, expectedModRevision));
  }
}

/** `/registry/apps/deployments/ns/name` → `deployments.apps`. */
function typeOf(key: string): string {
  // only the first segments matter: `/registry/<group>/<resource>/`
  const [, , group, resource] = key.split('/', 4);
  if (!resource) return group ?? '';
  return group === 'core' ? resource : `${resource}.${group}`;
}
