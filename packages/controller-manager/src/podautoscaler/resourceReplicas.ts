import { parseQuantity, parseTime, type Pod } from '@orch/api';
import type { PodMetricsInfo } from './ResourceMetricsClient';

/** The replica calculator's settings (the --horizontal-pod-autoscaler-* flags). */
export interface ReplicaCalculatorConfig {
  /** Minimum change from 1.0 of the usage ratio that scales. */
  tolerance: number;
  /** Period after a pod's start in which its CPU samples may be skipped. */
  cpuInitializationPeriodMs: number;
  /** Period after a pod's start in which a readiness change counts as its initial readiness. */
  delayOfInitialReadinessStatusMs: number;
}

/** What a resource utilization target proposes. */
export interface ResourceReplicas {
  replicas: number;
  /** Average utilization of the requests, in percent. */
  utilization: number;
  /** Average usage per pod, in milli-units. */
  rawUtilization: number;
}

/**
 * The pods counted (ready), left out (ignored: pending, or CPU samples taken while a pod was not
 * ready yet) and lacking a metric (missing), as Kubernetes' groupPods sorts them. Deleted and failed
 * pods are in none.
 */
export function groupPods(
  pods: readonly Pod[],
  metrics: PodMetricsInfo,
  resource: string,
  config: ReplicaCalculatorConfig,
  now: number,
): { readyPodCount: number; ignored: Set<string>; missing: Set<string> } {
  const ignored = new Set<string>();
  const missing = new Set<string>();
  let readyPodCount = 0;
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Failed') continue;
    if (pod.status?.phase === 'Pending') {
      ignored.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const startTime = pod.status?.startTime;
      let ignore: boolean;
      if (!ready || !startTime) ignore = true;
      else {
        const started = parseTime(startTime);
        const transition = ready.lastTransitionTime ? parseTime(ready.lastTransitionTime) : 0;
        if (started + config.cpuInitializationPeriodMs > now) {
          // still initializing: unready, or no full sample window since the last readiness change
          ignore = ready.status === 'False' || metric.timestampMs < transition + metric.windowMs;
        } else {
          // unready and never ready since start
          ignore = ready.status === 'False' && started + config.delayOfInitialReadinessStatusMs > transition;
        }
      }
      if (ignore) {
        ignored.add(name);
        continue;
      }
    }
    readyPodCount++;
  }
  return { readyPodCount, ignored, missing };
}

/** Each pod's request of `resource` in milli-units, summed over its containers; every container must request it. */
export function podRequests(pods: readonly Pod[], resource: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    for (const container of pod.spec?.containers ?? []) {
      const request = (container.resources?.requests as Record<string, string> | undefined)?.[resource];
      if (request === undefined) throw new Error(`missing request for ${resource}`);
      sum += parseQuantity(String(request)).milliValue();
    }
    requests.set(pod.metadata?.name ?? '', sum);
  }
  return requests;
}

/**
 * The ratio of the average utilization of the requests to the target, the utilization in whole
 * percent and the average usage (Kubernetes' GetResourceUtilizationRatio): metrics of pods without
 * requests are extraneous.
 */
export function resourceUtilizationRatio(
  metrics: PodMetricsInfo,
  requests: ReadonlyMap<string, number>,
  targetUtilization: number,
): { ratio: number; utilization: number; rawUtilization: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, metric] of metrics) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += metric.value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return {
    ratio: utilization / targetUtilization,
    utilization,
    rawUtilization: Math.trunc(metricsTotal / entries),
  };
}

/**
 * The replicas a target utilization of a resource's requests asks for (Kubernetes' replica
 * calculator, GetResourceReplicas): within the tolerance the current count stays; pods missing a
 * metric count as using all of their request on a scale-down and none on a scale-up, ignored pods
 * none on a scale-up; a change the substitutes would turn around keeps the current count. Throws
 * with Kubernetes' reasons when it cannot tell.
 */
export function resourceReplicas(args: {
  currentReplicas: number;
  targetUtilization: number;
  resource: string;
  pods: readonly Pod[];
  metrics: PodMetricsInfo;
  config: ReplicaCalculatorConfig;
  now: number;
}): ResourceReplicas {
  const { currentReplicas, targetUtilization, resource, pods, config } = args;
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const metrics: PodMetricsInfo = new Map(args.metrics);
  const { readyPodCount, ignored, missing } = groupPods(pods, metrics, resource, config, args.now);
  for (const name of ignored) metrics.delete(name);
  const requests = podRequests(pods, resource);
  if (metrics.size === 0) throw new Error('did not receive metrics for any ready pods');

  const { ratio, utilization, rawUtilization } = resourceUtilizationRatio(
    metrics,
    requests,
    targetUtilization,
  );
  const keep = { replicas: currentReplicas, utilization, rawUtilization };
  const rebalanceIgnored = ignored.size > 0 && ratio > 1.0;
  if (!rebalanceIgnored && missing.size === 0) {
    if (Math.abs(1.0 - ratio) <= config.tolerance) return keep;
    return { replicas: Math.ceil(ratio * readyPodCount), utilization, rawUtilization };
  }

  const at = (value: number) => ({ value, timestampMs: 0, windowMs: 0 });
  if (missing.size > 0) {
    if (ratio < 1.0) for (const name of missing) metrics.set(name, at(requests.get(name) ?? 0));
    else if (ratio > 1.0) for (const name of missing) metrics.set(name, at(0));
  }
  if (rebalanceIgnored) for (const name of ignored) metrics.set(name, at(0));

  const next = resourceUtilizationRatio(metrics, requests, targetUtilization).ratio;
  if (Math.abs(1.0 - next) <= config.tolerance || (ratio < 1.0 && next > 1.0) || (ratio > 1.0 && next < 1.0))
    return keep;
  const replicas = Math.ceil(next * metrics.size);
  if ((next < 1.0 && replicas > currentReplicas) || (next > 1.0 && replicas < currentReplicas)) return keep;
  return { replicas, utilization, rawUtilization };
}
