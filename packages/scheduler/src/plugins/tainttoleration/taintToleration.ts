import {
  findUntoleratedTaint,
  tolerationsTolerateTaint,
  type Pod,
  type Taint,
  type Toleration,
} from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import type { FilterPlugin, PreScorePlugin, ScorePlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Status } from '../../framework/status';
import { defaultNormalizeScore } from '../helper/normalizeScore';

export const TAINT_TOLERATION = 'TaintToleration';
const PRE_SCORE_KEY = 'PreScore' + TAINT_TOLERATION;

const isHardTaint = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

/** Kubernetes' (1.18+) reason for a node whose taint the pod does not tolerate. */
export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had taint {${taint.key ?? ''}: ${taint.value ?? ''}}, that the pod didn't tolerate`;
}

/**
 * Filters out nodes with NoSchedule/NoExecute taints the pod does not tolerate; prefers nodes with
 * fewer untolerated PreferNoSchedule taints.
 */
export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = TAINT_TOLERATION;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const taint = findUntoleratedTaint(nodeInfo.node?.spec?.taints, pod.spec?.tolerations, isHardTaint);
    return taint === undefined ? undefined : Status.unresolvable(untoleratedTaintReason(taint));
  }

  preScore(state: CycleState, pod: Pod): Status | undefined {
    const preferred = (pod.spec?.tolerations ?? []).filter(
      (t) => !t.effect || t.effect === 'PreferNoSchedule',
    );
    state.write(PRE_SCORE_KEY, preferred);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const taints = nodeInfo.node?.spec?.taints;
    if (!taints || taints.length === 0) return 0;
    const tolerations =
      state.read<Toleration[]>(PRE_SCORE_KEY) ??
      (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    let count = 0;
    for (const taint of taints) {
      if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, taint)) count++;
    }
    return count;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: Float64Array): Status | undefined {
    defaultNormalizeScore(scores, true);
    return undefined;
  }
}
