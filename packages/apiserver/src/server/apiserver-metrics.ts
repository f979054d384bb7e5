import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The apiserver's Prometheus metrics, named as kube-apiserver names them. */
export class APIServerMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, group, version, resource, subresource and HTTP response code.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'code'],
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, group, version, resource and subresource.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly inflight = new Gauge({
    name: 'apiserver_current_inflight_requests',
    help: 'Maximal number of currently used inflight request limit of this apiserver per request kind.',
    labelNames: ['request_kind'],
    registers: [this.registry],
  });
  readonly watchers = new Gauge({
    name: 'apiserver_registered_watchers',
    help: 'Number of currently registered watchers for a given resource.',
    labelNames: ['group', 'version', 'kind'],
    registers: [this.registry],
  });
  readonly storageLatency = new Histogram({
    name: 'etcd_request_duration_seconds',
    help: 'Storage request latency in seconds for each operation and object type.',
    labelNames: ['operation', 'type'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /** Label children by metric and label values: prom-client hashes and validates labels on every lookup. */
  private readonly children = new Map<string, unknown>();

  /**
   * The child of a metric for one combination of label values, looked up once and then reused.
   * `key` must identify the metric and the values (e.g. the values joined with a separator).
   */
  child<T>(key: string, make: () => T): T {
    let c = this.children.get(key) as T | undefined;
    if (c === undefined) {
      c = make();
      this.children.set(key, c);
    }
    return c;
  }
}
