import { parseQuantity, parseTime } from '@orch/api';
import type { RestClient } from '@orch/client';
import { errorMessage, parseDuration } from '@orch/component-base';
import type { PodMetricsInfo, ResourceMetricsClient } from './ResourceMetricsClient';

/** A metrics.k8s.io/v1beta1 PodMetrics, as the resource metrics API serves it. */
interface PodMetrics {
  metadata?: { name?: string };
  timestamp?: string;
  window?: string;
  containers?: { name?: string; usage?: Record<string, string> }[];
}

/**
 * The resource metrics API (metrics.k8s.io/v1beta1 PodMetrics) read through the API server, as
 * Kubernetes' REST metrics client reads it: a pod counts when every one of its containers reports
 * the resource.
 */
export class RestMetricsClient implements ResourceMetricsClient {
  constructor(private readonly rest: RestClient) {}

  async getResourceMetric(
    resource: string,
    namespace: string,
    selector: string,
  ): Promise<{ metrics: PodMetricsInfo; timestampMs: number }> {
    let items: PodMetrics[];
    try {
      const list = await this.rest
        .get()
        .group('metrics.k8s.io')
        .version('v1beta1')
        .namespace(namespace)
        .resource('pods')
        .param('labelSelector', selector || undefined)
        .do<{ items?: PodMetrics[] }>();
      items = list.items ?? [];
    } catch (err) {
      throw new Error(`unable to fetch metrics from resource metrics API: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    if (items.length === 0) throw new Error('no metrics returned from resource metrics API');
    const metrics: PodMetricsInfo = new Map();
    for (const m of items) {
      const containers = m.containers ?? [];
      let sum = 0;
      let missing = containers.length === 0;
      for (const c of containers) {
        const usage = c.usage?.[resource];
        if (usage === undefined) {
          missing = true;
          break;
        }
        sum += parseQuantity(usage).milliValue();
      }
      if (missing) continue;
      metrics.set(m.metadata?.name ?? '', {
        value: sum,
        timestampMs: timeOf(m.timestamp),
        windowMs: windowOf(m.window),
      });
    }
    return { metrics, timestampMs: timeOf(items[0]?.timestamp) };
  }
}

const timeOf = (t: string | undefined): number => (t ? parseTime(t) : 0);

function windowOf(window: string | undefined): number {
  try {
    return window ? parseDuration(window) : 0;
  } catch {
    return 0;
  }
}
