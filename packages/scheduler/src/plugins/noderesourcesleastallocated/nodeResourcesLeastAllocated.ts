import type { Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { podRequests } from '../../framework/resource';

export const NODE_RESOURCES_LEAST_ALLOCATED = 'NodeResourcesLeastAllocated';

export interface ResourceWeight {
  name: string;
  weight: number;
}

export interface NodeResourcesLeastAllocatedArgs {
  /** Resources and their weights; cpu and memory with weight 1 by default. */
  resources?: ResourceWeight[];
}

/** ((capacity - requested) * MaxNodeScore) / capacity, 0 when the request exceeds the capacity. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/**
 * Prefers nodes with the most free resources after placing the pod: the weighted mean of each
 * resource's least-requested score, counting Kubernetes' default requests for containers without
 * any (100m CPU, 200Mi memory).
 */
export class NodeResourcesLeastAllocated implements ScorePlugin {
  readonly name = NODE_RESOURCES_LEAST_ALLOCATED;
  private readonly cpuWeight: number;
  private readonly memoryWeight: number;
  private readonly otherWeights: ResourceWeight[];
  private readonly weightSum: number;

  /** @param podOverhead whether spec.overhead counts (the PodOverhead feature gate) */
  constructor(
    args?: NodeResourcesLeastAllocatedArgs,
    private readonly podOverhead = false,
  ) {
    const resources = args?.resources ?? [
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ];
    this.cpuWeight = resources.find((r) => r.name === 'cpu')?.weight ?? 0;
    this.memoryWeight = resources.find((r) => r.name === 'memory')?.weight ?? 0;
    this.otherWeights = resources.filter((r) => r.name !== 'cpu' && r.name !== 'memory');
    this.weightSum = resources.reduce((s, r) => s + r.weight, 0);
  }

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    if (this.weightSum === 0) return 0;
    const req = podRequests(pod, this.podOverhead);
    const allocatable = nodeInfo.allocatable;
    let total = 0;
    if (this.cpuWeight !== 0)
      total +=
        this.cpuWeight *
        leastRequestedScore(nodeInfo.nonZeroMilliCPU + req.nonZeroMilliCPU, allocatable.milliCPU);
    if (this.memoryWeight !== 0)
      total +=
        this.memoryWeight *
        leastRequestedScore(nodeInfo.nonZeroMemory + req.nonZeroMemory, allocatable.memory);
    for (const r of this.otherWeights) {
      const requested =
        r.name === 'ephemeral-storage'
          ? nodeInfo.requested.ephemeralStorage + req.resource.ephemeralStorage
          : (nodeInfo.requested.scalar?.get(r.name) ?? 0) + (req.resource.scalar?.get(r.name) ?? 0);
      const capacity =
        r.name === 'ephemeral-storage'
          ? allocatable.ephemeralStorage
          : (allocatable.scalar?.get(r.name) ?? 0);
      total += r.weight * leastRequestedScore(requested, capacity);
    }
    return Math.trunc(total / this.weightSum);
  }
}
