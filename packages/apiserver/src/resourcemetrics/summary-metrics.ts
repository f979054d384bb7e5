import {
  newQuantity,
  newScaledQuantity,
  type ContainerMetrics,
  type CPUStats,
  type MemoryStats,
  type NodeMetrics,
  type NodeStats,
  type PodMetrics,
  type PodStats,
} from '@orch/api';

/**
 * The window of the usage the metrics API reports: node agents average CPU usage over their recent
 * samples, up to this long (as cAdvisor's housekeeping interval bounds the kubelet's usageNanoCores).
 */
export const METRICS_WINDOW = '15s';

/** CPU in cores from nanocores, as metrics-server writes it (`123456n`, `250m`, `1`). */
export function cpuQuantity(nanoCores: number): string {
  return newScaledQuantity(BigInt(Math.max(0, Math.round(nanoCores))), -9).toString();
}

/** Memory in bytes, in the binary format (`1234Ki`, or plain bytes when not a whole KiB). */
export function memoryQuantity(bytes: number): string {
  return newQuantity(Math.max(0, Math.round(bytes)), 'BinarySI').toString();
}

/** A sample's usage: cpu from usageNanoCores, memory from workingSetBytes; undefined when either lacks. */
function usageOf(
  cpu: CPUStats | undefined,
  memory: MemoryStats | undefined,
): { usage: Record<string, string>; time: string } | undefined {
  if (cpu?.usageNanoCores === undefined || memory?.workingSetBytes === undefined) return undefined;
  return {
    usage: { cpu: cpuQuantity(cpu.usageNanoCores), memory: memoryQuantity(memory.workingSetBytes) },
    time: cpu.time || memory.time,
  };
}

export interface MetricsMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}

/** The NodeMetrics of a node agent's node stats; undefined when its CPU or memory is not reported. */
export function nodeMetricsOf(
  stats: NodeStats,
  meta: MetricsMeta,
  apiVersion: string,
  now: string,
): NodeMetrics | undefined {
  const u = usageOf(stats.cpu, stats.memory);
  if (!u) return undefined;
  return {
    apiVersion,
    kind: 'NodeMetrics',
    metadata: {
      name: meta.name,
      creationTimestamp: now,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
    },
    timestamp: u.time,
    window: METRICS_WINDOW,
    usage: u.usage,
  };
}

/**
 * The PodMetrics of a pod's stats: one entry per container; undefined when the pod reports no
 * container or one of them lacks CPU or memory (metrics-server drops such pods). Its timestamp is
 * its containers' earliest.
 */
export function podMetricsOf(
  stats: PodStats,
  meta: MetricsMeta,
  apiVersion: string,
  now: string,
): PodMetrics | undefined {
  if (!stats.containers.length) return undefined;
  const containers: ContainerMetrics[] = [];
  let earliest: string | undefined;
  for (const c of stats.containers) {
    const u = usageOf(c.cpu, c.memory);
    if (!u) return undefined;
    containers.push({ name: c.name, usage: u.usage });
    if (earliest === undefined || Date.parse(u.time) < Date.parse(earliest)) earliest = u.time;
  }
  return {
    apiVersion,
    kind: 'PodMetrics',
    metadata: {
      name: meta.name,
      namespace: meta.namespace ?? stats.podRef.namespace,
      creationTimestamp: now,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
    },
    timestamp: earliest!,
    window: METRICS_WINDOW,
    containers,
  };
}
