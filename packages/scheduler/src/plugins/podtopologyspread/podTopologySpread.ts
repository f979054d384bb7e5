import type { Node, Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import {
  MAX_NODE_SCORE,
  type FilterPlugin,
  type FrameworkHandle,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import {
  countMatching,
  hasAllTopologyKeys,
  NodeInclusion,
  pairKey,
  podCounts,
  spreadConstraints,
  type SpreadConstraint,
} from './spreadConstraints';

export const POD_TOPOLOGY_SPREAD = 'PodTopologySpread';
/** The feature gate of the plugin: in the default plugins only while it is on. */
export const EVEN_PODS_SPREAD = 'EvenPodsSpread';
export const ERR_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_NODE_LABEL_NOT_MATCH = `${ERR_CONSTRAINTS_NOT_MATCH} (missing required label)`;

const PRE_FILTER_KEY = 'PreFilter' + POD_TOPOLOGY_SPREAD;
const PRE_SCORE_KEY = 'PreScore' + POD_TOPOLOGY_SPREAD;

/** What PreFilter counted: matching pods per topology domain of the hard constraints. */
interface FilterState {
  constraints: SpreadConstraint[];
  /** Matching pods by domain (pairKey), for every domain of an eligible node. */
  matchNum: Map<string, number>;
  /** The domains (label values) seen for each topology key. */
  domains: Map<string, Set<string>>;
}

/** What PreScore counted for the soft constraints. */
interface ScoreState {
  constraints: SpreadConstraint[];
  matchNum: Map<string, number>;
  /** Per constraint, log(domains + 2): a key with more domains weighs more. */
  weights: number[];
  /** Filtered nodes missing a topology key: they score 0. */
  ignored: Set<string>;
  /** Whether each node scored, in the order the scores come, is ignored. */
  ignoredAt: boolean[];
}

const nodeLabel = (node: Node, key: string): string => (node.metadata?.labels ?? {})[key]!;

/**
 * Spreads pods evenly over topology domains (Kubernetes' PodTopologySpread): `DoNotSchedule`
 * constraints filter out nodes whose domain would exceed maxSkew over the least loaded domain;
 * `ScheduleAnyway` constraints score nodes in less loaded domains higher.
 */
export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = POD_TOPOLOGY_SPREAD;

  constructor(private readonly handle: FrameworkHandle) {}

  preFilter(state: CycleState, pod: Pod): Status | undefined {
    const constraints = spreadConstraints(pod, 'DoNotSchedule');
    if (constraints.length === 0) return new Status(Code.Skip);
    const s: FilterState = { constraints, matchNum: new Map(), domains: new Map() };
    const inclusion = new NodeInclusion(pod);
    const namespace = pod.metadata?.namespace ?? '';
    for (const nodeInfo of this.handle.nodeInfos()) {
      const node = nodeInfo.node;
      if (!node || !hasAllTopologyKeys(node, constraints)) continue;
      for (const c of constraints) {
        if (!inclusion.includes(c, node)) continue;
        const value = nodeLabel(node, c.topologyKey);
        const pair = pairKey(c.topologyKey, value);
        s.matchNum.set(pair, (s.matchNum.get(pair) ?? 0) + countMatching(c, namespace, nodeInfo));
        let values = s.domains.get(c.topologyKey);
        if (!values) s.domains.set(c.topologyKey, (values = new Set()));
        values.add(value);
      }
    }
    state.write(PRE_FILTER_KEY, s);
    return undefined;
  }

  preFilterExtensions(): PreFilterExtensions {
    const update = (state: CycleState, pod: Pod, other: Pod, nodeInfo: NodeInfo, delta: number) => {
      const s = state.read<FilterState>(PRE_FILTER_KEY);
      const node = nodeInfo.node;
      if (!s || !node || !hasAllTopologyKeys(node, s.constraints)) return undefined;
      const inclusion = new NodeInclusion(pod);
      const namespace = pod.metadata?.namespace ?? '';
      // the cycle state is a shallow copy: the counts are copied before they change
      const matchNum = new Map(s.matchNum);
      for (const c of s.constraints) {
        if (!inclusion.includes(c, node) || !podCounts(c, namespace, other)) continue;
        const pair = pairKey(c.topologyKey, nodeLabel(node, c.topologyKey));
        matchNum.set(pair, (matchNum.get(pair) ?? 0) + delta);
      }
      state.write(PRE_FILTER_KEY, { ...s, matchNum });
      return undefined;
    };
    return {
      addPod: (state, pod, podToAdd, nodeInfo) => update(state, pod, podToAdd, nodeInfo, 1),
      removePod: (state, pod, podToRemove, nodeInfo) => update(state, pod, podToRemove, nodeInfo, -1),
    };
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<FilterState>(PRE_FILTER_KEY);
    const node = nodeInfo.node;
    if (!s || !node) return undefined;
    if (!hasAllTopologyKeys(node, s.constraints)) return Status.unresolvable(ERR_NODE_LABEL_NOT_MATCH);
    const labels = pod.metadata?.labels ?? {};
    for (const c of s.constraints) {
      const selfMatch = c.selector.matches(labels) ? 1 : 0;
      const matchNum = s.matchNum.get(pairKey(c.topologyKey, nodeLabel(node, c.topologyKey))) ?? 0;
      const skew = matchNum + selfMatch - minMatchNum(s, c);
      if (skew > c.maxSkew) return Status.unschedulable(ERR_CONSTRAINTS_NOT_MATCH);
    }
    return undefined;
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined {
    const constraints = spreadConstraints(pod, 'ScheduleAnyway');
    if (constraints.length === 0) return new Status(Code.Skip);
    const s: ScoreState = {
      constraints,
      matchNum: new Map(),
      weights: [],
      ignored: new Set(),
      ignoredAt: [],
    };
    // the domains scored are those of the filtered nodes with every key
    const domains = constraints.map(() => new Set<string>());
    for (const nodeInfo of nodes) {
      const node = nodeInfo.node;
      if (!node) continue;
      if (!hasAllTopologyKeys(node, constraints)) {
        s.ignored.add(node.metadata?.name ?? '');
        continue;
      }
      constraints.forEach((c, i) => {
        const value = nodeLabel(node, c.topologyKey);
        domains[i]!.add(value);
        s.matchNum.set(pairKey(c.topologyKey, value), 0);
      });
    }
    s.weights = domains.map((d) => Math.log(d.size + 2));
    // the scores come in the order of these nodes
    s.ignoredAt = nodes.map((n) => s.ignored.has(n.node?.metadata?.name ?? ''));
    // their pods are counted on every node of those domains
    const inclusion = new NodeInclusion(pod);
    const namespace = pod.metadata?.namespace ?? '';
    for (const nodeInfo of this.handle.nodeInfos()) {
      const node = nodeInfo.node;
      if (!node || !hasAllTopologyKeys(node, constraints)) continue;
      for (const c of constraints) {
        const pair = pairKey(c.topologyKey, nodeLabel(node, c.topologyKey));
        const current = s.matchNum.get(pair);
        if (current === undefined || !inclusion.includes(c, node)) continue;
        s.matchNum.set(pair, current + countMatching(c, namespace, nodeInfo));
      }
    }
    state.write(PRE_SCORE_KEY, s);
    return undefined;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const s = state.read<ScoreState>(PRE_SCORE_KEY);
    const node = nodeInfo.node;
    if (!s || !node || s.ignored.has(node.metadata?.name ?? '')) return 0;
    let score = 0;
    s.constraints.forEach((c, i) => {
      const count = s.matchNum.get(pairKey(c.topologyKey, nodeLabel(node, c.topologyKey))) ?? 0;
      score += count * s.weights[i]! + (c.maxSkew - 1);
    });
    return Math.round(score);
  }

  /**
   * Fewer matching pods score higher: MAX * (max + min - score) / max over the nodes not ignored;
   * ignored nodes score 0, and when every node counts 0 they all score MAX.
   */
  normalizeScore(state: CycleState, _pod: Pod, scores: Float64Array): Status | undefined {
    const s = state.read<ScoreState>(PRE_SCORE_KEY);
    if (!s) return undefined;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < scores.length; i++) {
      if (s.ignoredAt[i]) continue;
      min = Math.min(min, scores[i]!);
      max = Math.max(max, scores[i]!);
    }
    for (let i = 0; i < scores.length; i++) {
      if (s.ignoredAt[i]) scores[i] = 0;
      else if (max === 0) scores[i] = MAX_NODE_SCORE;
      else scores[i] = Math.floor((MAX_NODE_SCORE * (max + min - scores[i]!)) / max);
    }
    return undefined;
  }
}

/**
 * The least number of matching pods over the constraint's domains, or 0 when there are fewer
 * eligible domains than minDomains (or none).
 */
function minMatchNum(s: FilterState, c: SpreadConstraint): number {
  const values = s.domains.get(c.topologyKey);
  if (!values || values.size < c.minDomains) return 0;
  let min = Infinity;
  for (const v of values) min = Math.min(min, s.matchNum.get(pairKey(c.topologyKey, v)) ?? 0);
  return min === Infinity ? 0 : min;
}
