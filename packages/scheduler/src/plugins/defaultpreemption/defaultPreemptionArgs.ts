/** DefaultPreemptionArgs of KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). */
export interface DefaultPreemptionArgs {
  /**
   * The minimum share (0-100) of the nodes where preemption might help that are dry-run for
   * candidates; default 10.
   */
  minCandidateNodesPercentage?: number;
  /** The minimum number of nodes dry-run for candidates; default 100. */
  minCandidateNodesAbsolute?: number;
}

export const DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10;
export const DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100;

function invalid(path: string, field: string, value: unknown, detail: string): string {
  return `${path}.${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`;
}

/**
 * Checks DefaultPreemption plugin args found at `path` and fills in Kubernetes' defaults; throws
 * with every problem (Kubernetes' ValidateDefaultPreemptionArgs messages), joined by `, `.
 */
export function validateDefaultPreemptionArgs(args: unknown, path = 'args'): Required<DefaultPreemptionArgs> {
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args)))
    throw new Error(`${path}: must be a mapping`);
  const raw = (args ?? {}) as Record<string, unknown>;
  const percentage = raw.minCandidateNodesPercentage ?? DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE;
  const absolute = raw.minCandidateNodesAbsolute ?? DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE;
  const errors: string[] = [];
  if (typeof percentage !== 'number' || !Number.isInteger(percentage))
    errors.push(invalid(path, 'minCandidateNodesPercentage', percentage, 'must be an integer'));
  else if (percentage < 0 || percentage > 100)
    errors.push(invalid(path, 'minCandidateNodesPercentage', percentage, 'not in valid range [0, 100]'));
  if (typeof absolute !== 'number' || !Number.isInteger(absolute))
    errors.push(invalid(path, 'minCandidateNodesAbsolute', absolute, 'must be an integer'));
  else if (absolute < 0)
    errors.push(invalid(path, 'minCandidateNodesAbsolute', absolute, 'not in valid range [0, inf)'));
  if (percentage === 0 && absolute === 0)
    errors.push(
      invalid(
        path,
        'minCandidateNodesPercentage',
        0,
        'cannot be zero at the same time as minCandidateNodesAbsolute',
      ),
      invalid(
        path,
        'minCandidateNodesAbsolute',
        0,
        'cannot be zero at the same time as minCandidateNodesPercentage',
      ),
    );
  if (errors.length > 0) throw new Error(errors.join(', '));
  return {
    minCandidateNodesPercentage: percentage as number,
    minCandidateNodesAbsolute: absolute as number,
  };
}

/**
 * How many nodes to dry-run: the percentage of `numNodes`, at least the absolute minimum, at most
 * all of them.
 */
export function calculateNumCandidates(args: Required<DefaultPreemptionArgs>, numNodes: number): number {
  let n = Math.floor((numNodes * args.minCandidateNodesPercentage) / 100);
  if (n < args.minCandidateNodesAbsolute) n = args.minCandidateNodesAbsolute;
  return Math.min(n, numNodes);
}
