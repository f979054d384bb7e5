import type { Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { podRequests } from '../../framework/resource';

export const NODE_RESOURCES_BALANCED_ALLOCATION = 'NodeResourcesBalancedAllocation';

/** requested / capacity; a resource the node does not have counts as fully used. */
function fractionOfCapacity(requested: number, capacity: number): number {
  return capacity === 0 ? 1 : requested / capacity;
}

/**
 * Kubernetes' balanced resource score: (1 - |cpuFraction - memoryFraction|) * MaxNodeScore, and 0
 * when either fraction reaches 1 (a node that would be full is never preferred).
 */
export function balancedResourceScore(
  requestedMilliCPU: number,
  allocatableMilliCPU: number,
  requestedMemory: number,
  allocatableMemory: number,
): number {
  const cpu = fractionOfCapacity(requestedMilliCPU, allocatableMilliCPU);
  const memory = fractionOfCapacity(requestedMemory, allocatableMemory);
  if (cpu >= 1 || memory >= 1) return 0;
  return Math.trunc((1 - Math.abs(cpu - memory)) * MAX_NODE_SCORE);
}

/**
 * Prefers nodes whose cpu and memory would be used in equal proportions after placing the pod,
 * counting Kubernetes' default requests for containers without any (as NodeResourcesLeastAllocated).
 */
export class NodeResourcesBalancedAllocation implements ScorePlugin {
  readonly name = NODE_RESOURCES_BALANCED_ALLOCATION;

  /** @param podOverhead whether spec.overhead counts (the PodOverhead feature gate) */
  constructor(private readonly podOverhead = false) {}

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const req = podRequests(pod, this.podOverhead);
    const allocatable = nodeInfo.allocatable;
    return balancedResourceScore(
      nodeInfo.nonZeroMilliCPU + req.nonZeroMilliCPU,
      allocatable.milliCPU,
      nodeInfo.nonZeroMemory + req.nonZeroMemory,
      allocatable.memory,
    );
  }
}
