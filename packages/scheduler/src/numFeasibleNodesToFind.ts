/** Below this many nodes every node is filtered. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** The lowest adaptive percentage. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * How many feasible nodes to look for, as Kubernetes computes it: all nodes below 100 or at 100%;
 * otherwise the configured percentage, or adaptively 50% minus one per 125 nodes (at least 5%),
 * and never fewer than 100 nodes.
 */
export function numFeasibleNodesToFind(numAllNodes: number, percentageOfNodesToScore: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentageOfNodesToScore >= 100) return numAllNodes;
  let percentage = percentageOfNodesToScore;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
      percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}
