import { NodeSelectorMatcher, RequiredNodeAffinity, type Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import type { FilterPlugin, PreFilterPlugin, ScorePlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Status } from '../../framework/status';
import { defaultNormalizeScore } from '../helper/normalizeScore';

export const NODE_AFFINITY = 'NodeAffinity';
export const ERR_NODE_SELECTOR_NOT_MATCH = "node(s) didn't match node selector";
const STATE_KEY = 'PreFilter' + NODE_AFFINITY;

interface PreferredTerm {
  weight: number;
  matcher: NodeSelectorMatcher;
}

interface AffinityState {
  required: RequiredNodeAffinity;
  preferred: PreferredTerm[];
}

function compile(pod: Pod): AffinityState {
  const preferred = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return {
    required: new RequiredNodeAffinity(pod),
    preferred: preferred
      .filter((t) => t.weight !== 0)
      .map((t) => ({ weight: t.weight, matcher: new NodeSelectorMatcher([t.preference]) })),
  };
}

/**
 * Filters nodes by spec.nodeSelector and required node affinity; scores nodes by the summed weights
 * of the preferred terms they match. Selectors are compiled once per scheduling cycle.
 */
export class NodeAffinity implements PreFilterPlugin, FilterPlugin, ScorePlugin {
  readonly name = NODE_AFFINITY;

  preFilter(state: CycleState, pod: Pod): Status | undefined {
    state.write(STATE_KEY, compile(pod));
    return undefined;
  }

  private state(state: CycleState, pod: Pod): AffinityState {
    let s = state.read<AffinityState>(STATE_KEY);
    if (s === undefined) {
      s = compile(pod);
      state.write(STATE_KEY, s);
    }
    return s;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const { required } = this.state(state, pod);
    if (required.isEmpty || (nodeInfo.node && required.matches(nodeInfo.node))) return undefined;
    return Status.unresolvable(ERR_NODE_SELECTOR_NOT_MATCH);
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const { preferred } = this.state(state, pod);
    const node = nodeInfo.node;
    if (preferred.length === 0 || !node) return 0;
    let count = 0;
    for (const t of preferred) if (t.matcher.matches(node)) count += t.weight;
    return count;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: Float64Array): Status | undefined {
    defaultNormalizeScore(scores, false);
    return undefined;
  }
}
