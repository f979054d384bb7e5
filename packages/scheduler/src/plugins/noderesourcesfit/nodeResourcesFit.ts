import type { Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import type { FilterPlugin, PreFilterPlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { podRequests, type Resource } from '../../framework/resource';
import { Code, Status } from '../../framework/status';

export const NODE_RESOURCES_FIT = 'NodeResourcesFit';
const STATE_KEY = 'PreFilter' + NODE_RESOURCES_FIT;

export interface NodeResourcesFitArgs {
  /** Extended resources not checked (e.g. managed by an extender). */
  ignoredResources?: string[];
}

/** Kubernetes' reason for a missing resource: `Insufficient cpu`. */
export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}
export const TOO_MANY_PODS = 'Too many pods';

/**
 * Checks that the node has room for the pod: one more pod under the allowed pod number, and its
 * effective requests (init containers' maximum rule, overhead with the PodOverhead gate) within
 * allocatable minus requested.
 */
export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin {
  readonly name = NODE_RESOURCES_FIT;
  private readonly ignored: ReadonlySet<string>;

  /** @param podOverhead whether spec.overhead counts (the PodOverhead feature gate) */
  constructor(
    args?: NodeResourcesFitArgs,
    private readonly podOverhead = false,
  ) {
    this.ignored = new Set(args?.ignoredResources ?? []);
  }

  preFilter(state: CycleState, pod: Pod): Status | undefined {
    state.write(STATE_KEY, podRequests(pod, this.podOverhead).resource);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const request = state.read<Resource>(STATE_KEY) ?? podRequests(pod, this.podOverhead).resource;
    const reasons = this.insufficientResources(request, nodeInfo);
    return reasons === undefined ? undefined : new Status(Code.Unschedulable, reasons);
  }

  /** The reasons the node cannot take the request, in Kubernetes' order; undefined when it fits. */
  insufficientResources(request: Resource, nodeInfo: NodeInfo): string[] | undefined {
    const allocatable = nodeInfo.allocatable;
    const requested = nodeInfo.requested;
    let reasons: string[] | undefined;
    if (nodeInfo.podCount + 1 > allocatable.allowedPodNumber) (reasons ??= []).push(TOO_MANY_PODS);
    if (
      request.milliCPU === 0 &&
      request.memory === 0 &&
      request.ephemeralStorage === 0 &&
      (request.scalar === undefined || request.scalar.size === 0)
    )
      return reasons;
    if (allocatable.milliCPU < request.milliCPU + requested.milliCPU)
      (reasons ??= []).push(insufficientReason('cpu'));
    if (allocatable.memory < request.memory + requested.memory)
      (reasons ??= []).push(insufficientReason('memory'));
    if (allocatable.ephemeralStorage < request.ephemeralStorage + requested.ephemeralStorage)
      (reasons ??= []).push(insufficientReason('ephemeral-storage'));
    if (request.scalar) {
      for (const [name, quantity] of request.scalar) {
        if (quantity === 0 || this.ignored.has(name)) continue;
        const have = allocatable.scalar?.get(name) ?? 0;
        const used = requested.scalar?.get(name) ?? 0;
        if (have < quantity + used) (reasons ??= []).push(insufficientReason(name));
      }
    }
    return reasons;
  }
}
