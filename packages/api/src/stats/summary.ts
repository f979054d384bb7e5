/**
 * The kubelet's Summary API (`/stats/summary`, stats/v1alpha1): what a node agent reports of the
 * resource usage of its node and of the pods running on it, the part of it the resource metrics
 * pipeline reads (CPU and memory). Times are RFC 3339.
 */

/** CPU usage at `time`: the rate over the recent window and the cumulative use. */
export interface CPUStats {
  time: string;
  /** Average usage over the recent sampling window, in billionths of a core. */
  usageNanoCores?: number;
  /** Cumulative usage since the container (or node) started, in core-nanoseconds. */
  usageCoreNanoSeconds?: number;
}

/** Memory usage at `time`, in bytes. */
export interface MemoryStats {
  time: string;
  availableBytes?: number;
  usageBytes?: number;
  /** The memory in use that cannot be reclaimed under pressure: what the metrics pipeline reports. */
  workingSetBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface ContainerStats {
  name: string;
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface PodReference {
  name: string;
  namespace: string;
  uid: string;
}

export interface PodStats {
  podRef: PodReference;
  startTime?: string;
  containers: ContainerStats[];
  /** The pod's usage: the sum of its containers'. */
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface NodeStats {
  nodeName: string;
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
}

export interface Summary {
  node: NodeStats;
  pods: PodStats[];
}
