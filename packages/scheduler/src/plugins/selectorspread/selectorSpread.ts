import { nodeZoneKey, type LabelsSelector, type Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import {
  MAX_NODE_SCORE,
  type FrameworkHandle,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import { defaultSelector } from './defaultSelector';

export const SELECTOR_SPREAD = 'SelectorSpread';
/** With this feature gate on, PodTopologySpread's default constraints spread instead of SelectorSpread. */
export const DEFAULT_POD_TOPOLOGY_SPREAD = 'DefaultPodTopologySpread';

const PRE_SCORE_KEY = 'PreScore' + SELECTOR_SPREAD;
/** With zone labels, 2/3 of the score comes from spreading over zones and 1/3 over nodes. */
const ZONE_WEIGHTING = 2 / 3;

interface ScoreState {
  selector: LabelsSelector;
  /** The nodes scored, in the order the scores come. */
  nodes: readonly NodeInfo[];
}

/**
 * The pods on the node in `namespace`, not being deleted, that the selector matches; none for an
 * empty selector.
 */
export function countMatchingPods(namespace: string, selector: LabelsSelector, nodeInfo: NodeInfo): number {
  if (nodeInfo.pods.size === 0 || selector.empty()) return 0;
  let count = 0;
  for (const p of nodeInfo.pods.values()) {
    if ((p.metadata?.namespace ?? '') !== namespace || p.metadata?.deletionTimestamp) continue;
    if (selector.matches(p.metadata?.labels ?? {})) count++;
  }
  return count;
}

/**
 * Spreads the pods of a Service, ReplicationController, ReplicaSet or StatefulSet (Kubernetes'
 * SelectorSpread): nodes, and zones when nodes carry zone labels, with fewer pods matching the
 * selectors of those that select the pod score higher. Pods with topology spread constraints are
 * left to PodTopologySpread.
 */
export class SelectorSpread implements PreScorePlugin, ScorePlugin {
  readonly name = SELECTOR_SPREAD;

  constructor(private readonly handle: FrameworkHandle) {}

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined {
    if ((pod.spec?.topologySpreadConstraints ?? []).length > 0) return new Status(Code.Skip);
    const selector = defaultSelector(pod, this.handle.workloadListers);
    // nothing selects the pod: every node would score the most, which ranks no node above another
    if (selector.empty()) return new Status(Code.Skip);
    const s: ScoreState = { selector, nodes };
    state.write(PRE_SCORE_KEY, s);
    return undefined;
  }

  /** The number of matching pods on the node; normalizeScore turns counts into scores. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const s = state.read<ScoreState>(PRE_SCORE_KEY);
    if (!s) return 0;
    return countMatchingPods(pod.metadata?.namespace ?? '', s.selector, nodeInfo);
  }

  /**
   * MAX * (maxCount - count) / maxCount per node (MAX when no node counts any); on nodes with a zone,
   * blended 1/3 with the same over the zones' total counts, 2/3.
   */
  normalizeScore(state: CycleState, _pod: Pod, scores: Float64Array): Status | undefined {
    const s = state.read<ScoreState>(PRE_SCORE_KEY);
    if (!s) return undefined;
    const zones = s.nodes.map((n) => (n.node ? nodeZoneKey(n.node) : ''));
    const countsByZone = new Map<string, number>();
    let maxCountByNode = 0;
    for (let i = 0; i < scores.length; i++) {
      maxCountByNode = Math.max(maxCountByNode, scores[i]!);
      const zone = zones[i] ?? '';
      if (zone !== '') countsByZone.set(zone, (countsByZone.get(zone) ?? 0) + scores[i]!);
    }
    let maxCountByZone = 0;
    for (const c of countsByZone.values()) maxCountByZone = Math.max(maxCountByZone, c);
    const haveZones = countsByZone.size > 0;
    for (let i = 0; i < scores.length; i++) {
      let score = MAX_NODE_SCORE;
      if (maxCountByNode > 0) score = MAX_NODE_SCORE * ((maxCountByNode - scores[i]!) / maxCountByNode);
      const zone = zones[i] ?? '';
      if (haveZones && zone !== '') {
        let zoneScore = MAX_NODE_SCORE;
        if (maxCountByZone > 0)
          zoneScore = MAX_NODE_SCORE * ((maxCountByZone - countsByZone.get(zone)!) / maxCountByZone);
        score = score * (1 - ZONE_WEIGHTING) + ZONE_WEIGHTING * zoneScore;
      }
      scores[i] = Math.trunc(score);
    }
    return undefined;
  }
}
