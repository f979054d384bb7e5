import { parseQuantity, parseTime, type Pod } from '@orch/api';
import type { ContainerUsage, PodUsage } from './PodRunner';

/** The share of its requests a simulated container uses. */
export const SIMULATED_USAGE_FRACTION = 0.5;
/** CPU of a simulated container without a CPU request: 1m (in nanocores). */
const DEFAULT_NANO_CORES = 1_000_000;
/** Memory of a simulated container without a memory request: 1Mi. */
const DEFAULT_MEMORY_BYTES = 1024 * 1024;

function requested(value: string | number | undefined, scale: number): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseQuantity(String(value)).asApproximateFloat64() * scale;
  } catch {
    return undefined;
  }
}

/**
 * What a simulated pod's running containers use: a steady, deterministic usage of half of each
 * container's requests (CPU 1m and memory 1Mi when not requested), so that the resource metrics
 * API and the autoscalers have numbers. CPU accrues at that rate from the container's start.
 */
export function simulatedPodUsage(pod: Pod, now: number): PodUsage | undefined {
  const specs = new Map((pod.spec?.containers ?? []).map((c) => [c.name, c]));
  const containers: ContainerUsage[] = [];
  for (const status of pod.status?.containerStatuses ?? []) {
    const startedAt = status.state?.running?.startedAt;
    const spec = status.name === undefined ? undefined : specs.get(status.name);
    if (!startedAt || !spec) continue;
    const start = parseTime(startedAt);
    const requests = spec.resources?.requests ?? {};
    const cpuRequest = requested(requests.cpu, 1e9);
    const memoryRequest = requested(requests.memory, 1);
    const nanoCores = cpuRequest === undefined ? DEFAULT_NANO_CORES : cpuRequest * SIMULATED_USAGE_FRACTION;
    const memory =
      memoryRequest === undefined ? DEFAULT_MEMORY_BYTES : memoryRequest * SIMULATED_USAGE_FRACTION;
    containers.push({
      name: spec.name,
      startedAt: start,
      cpuCoreNanoSeconds: Math.round((nanoCores * Math.max(0, now - start)) / 1000),
      workingSetBytes: Math.round(memory),
    });
  }
  if (!containers.length) return undefined;
  return {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    ...(pod.status?.startTime ? { startTime: pod.status.startTime } : {}),
    containers,
  };
}
