import type { Pod } from '@orch/api';
import type { Status } from './status';

/** Kubernetes' message when the cluster has no nodes at all. */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** Why a pod fits no node: the status of each node that was filtered out. */
export class FitError extends Error {
  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly filteredNodeStatuses: ReadonlyMap<string, Status>,
    /** A PreFilter failure, reported as is. */
    readonly preFilterMessage?: string,
  ) {
    super(preFilterMessage ?? fitErrorMessage(numAllNodes, filteredNodeStatuses));
    this.name = 'FitError';
  }
}

/**
 * Kubernetes' aggregate: `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable.`
 * Each reason of each node is counted once per node; the "count reason" strings are sorted.
 */
export function fitErrorMessage(numAllNodes: number, statuses: ReadonlyMap<string, Status>): string {
  const histogram = new Map<string, number>();
  for (const status of statuses.values()) {
    for (const reason of status.reasons) histogram.set(reason, (histogram.get(reason) ?? 0) + 1);
  }
  const reasons = [...histogram].map(([reason, count]) => `${count} ${reason}`).sort();
  return `0/${numAllNodes} nodes are available: ${reasons.join(', ')}.`;
}

/**
 * Appends a PostFilter plugin's message (e.g. preemption's) to the fit error message as Kubernetes
 * does (each part ends with a period: `... 1 Insufficient cpu. preemption: 0/1 nodes ... pod..`).
 */
export function withPostFilterMessage(message: string, postFilterMessage: string): string {
  return postFilterMessage ? `${message} ${postFilterMessage}.` : message;
}
