import { formatTime, parseQuantity, type ContainerStats, type PodStats, type Summary } from '@orch/api';
import type { PodUsage } from '../runtime/PodRunner';
import type { Clock } from '../scheduling/Clock';

/** The longest window CPU usage is averaged over (cAdvisor's housekeeping bounds the kubelet's). */
export const CPU_RATE_WINDOW_MS = 15_000;
/** The shortest: a sample is compared with one at least this much older. */
export const CPU_RATE_MIN_SPAN_MS = 1_000;

interface Sample {
  at: number;
  ns: number;
}

/**
 * The CPU usage rate of containers from their cumulative usage, sampled when asked: averaged since
 * the oldest sample taken within the last {@link CPU_RATE_WINDOW_MS} (at least
 * {@link CPU_RATE_MIN_SPAN_MS} old), else since the latest older one, else since the container started.
 */
export class CpuRates {
  private history = new Map<string, Sample[]>();

  /** Nanocores used by `key` between its reference sample and `now`, when it has used `ns` in all. */
  rate(key: string, now: number, ns: number, startedAt: number): number {
    const samples = this.history.get(key) ?? [];
    let ref: Sample | undefined;
    let older: Sample | undefined;
    for (const s of samples) {
      const age = now - s.at;
      if (age > CPU_RATE_WINDOW_MS) older = s;
      else if (age >= CPU_RATE_MIN_SPAN_MS) {
        ref = s;
        break;
      }
    }
    ref ??= older ?? { at: startedAt, ns: 0 };
    const kept = samples.filter((s) => s.at >= ref.at && s.at < now);
    kept.push({ at: now, ns });
    this.history.set(key, kept.slice(-64));
    const span = now - ref.at;
    return span > 0 ? Math.max(0, ((ns - ref.ns) * 1000) / span) : 0;
  }

  /** Forgets every key but these (containers that stopped). */
  retain(keys: ReadonlySet<string>, prefix: string): void {
    for (const k of this.history.keys()) if (k.startsWith(prefix) && !keys.has(k)) this.history.delete(k);
  }
}

/** What the summary of a node is made of. */
export interface SummaryNode {
  name: string;
  capacity: Record<string, string>;
}

export interface SummaryProviderOptions {
  nodes: readonly SummaryNode[];
  /** The usage of the running containers of a node's pods at `now`. */
  usage: (nodeName: string, now: number) => Promise<PodUsage[]>;
  clock: Clock;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * The Summary API of the agent's nodes (`/stats/summary`): each pod's containers with their CPU
 * (rate and cumulative) and memory (working set), the pod's totals, and the node's usage as the sum
 * of its pods' (the agent's nodes may share one host, whose own totals would count each of them).
 */
export class SummaryProvider {
  private readonly rates = new CpuRates();
  private readonly startTime: string;

  constructor(private readonly opts: SummaryProviderOptions) {
    this.startTime = formatTime(opts.clock.now());
  }

  /** The names of the nodes summarized. */
  get nodeNames(): string[] {
    return this.opts.nodes.map((n) => n.name);
  }

  /** The summary of one of the agent's nodes; undefined for another node. */
  async summary(nodeName: string): Promise<Summary | undefined> {
    const node = this.opts.nodes.find((n) => n.name === nodeName);
    if (!node) return undefined;
    const now = this.opts.clock.now();
    const usage = await this.opts.usage(nodeName, now);
    const time = formatTime(now);
    const seen = new Set<string>();
    const pods: PodStats[] = usage.map((pod) => {
      const containers: ContainerStats[] = pod.containers.map((c) => {
        const key = `${nodeName}/${pod.uid}/${c.name}/${c.startedAt}`;
        seen.add(key);
        return {
          name: c.name,
          startTime: formatTime(c.startedAt),
          cpu: {
            time,
            usageNanoCores: Math.round(this.rates.rate(key, now, c.cpuCoreNanoSeconds, c.startedAt)),
            usageCoreNanoSeconds: Math.round(c.cpuCoreNanoSeconds),
          },
          memory: { time, workingSetBytes: c.workingSetBytes, usageBytes: c.workingSetBytes },
        };
      });
      return {
        podRef: { name: pod.name, namespace: pod.namespace, uid: pod.uid },
        ...(pod.startTime ? { startTime: pod.startTime } : {}),
        containers,
        ...totals(containers, time),
      };
    });
    this.rates.retain(seen, `${nodeName}/`);
    const capacity = memoryOf(node.capacity.memory);
    const { cpu, memory } = totals(pods, time);
    return {
      node: {
        nodeName,
        startTime: this.startTime,
        cpu,
        memory: {
          ...memory,
          ...(capacity === undefined
            ? {}
            : { availableBytes: Math.max(0, capacity - (memory.workingSetBytes ?? 0)) }),
        },
      },
      pods,
    };
  }
}

/** The CPU and memory of a set of containers (or pods): the sums of theirs. */
function totals(
  parts: readonly { cpu?: ContainerStats['cpu']; memory?: ContainerStats['memory'] }[],
  time: string,
): { cpu: NonNullable<ContainerStats['cpu']>; memory: NonNullable<ContainerStats['memory']> } {
  const workingSet = sum(parts.map((p) => p.memory?.workingSetBytes ?? 0));
  return {
    cpu: {
      time,
      usageNanoCores: sum(parts.map((p) => p.cpu?.usageNanoCores ?? 0)),
      usageCoreNanoSeconds: sum(parts.map((p) => p.cpu?.usageCoreNanoSeconds ?? 0)),
    },
    memory: { time, workingSetBytes: workingSet, usageBytes: workingSet },
  };
}

function memoryOf(value: string | undefined): number | undefined {
  if (!value) return undefined;
  try {
    return parseQuantity(value).asApproximateFloat64();
  } catch {
    return undefined;
  }
}
