import type { Pod } from '@orch/api';
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
  allTermsMatch,
  podAffinityInfo,
  termMatches,
  type AffinityTerm,
  type PodAffinityInfo,
  type WeightedAffinityTerm,
} from '../../framework/podAffinityTerms';

export const INTER_POD_AFFINITY = 'InterPodAffinity';
/** Kubernetes' reasons, one per rule a node breaks. */
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

export const DEFAULT_HARD_POD_AFFINITY_WEIGHT = 1;
export const MIN_HARD_POD_AFFINITY_WEIGHT = 0;
export const MAX_HARD_POD_AFFINITY_WEIGHT = 100;

export interface InterPodAffinityArgs {
  /**
   * Score weight of each existing pod's required affinity term that selects the incoming pod
   * (0-100, default 1).
   */
  hardPodAffinityWeight?: number;
}

/** The problem with a hard pod affinity weight, or undefined when it is an integer in 0-100. */
export function hardPodAffinityWeightError(weight: unknown): string | undefined {
  if (
    typeof weight === 'number' &&
    Number.isInteger(weight) &&
    weight >= MIN_HARD_POD_AFFINITY_WEIGHT &&
    weight <= MAX_HARD_POD_AFFINITY_WEIGHT
  )
    return undefined;
  return `Invalid value: ${JSON.stringify(weight)}: not in valid range [${MIN_HARD_POD_AFFINITY_WEIGHT}-${MAX_HARD_POD_AFFINITY_WEIGHT}]`;
}

/** Checks InterPodAffinity plugin args found at `path`; throws naming the bad field. */
export function validateInterPodAffinityArgs(args: unknown, path = 'args'): InterPodAffinityArgs {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new Error(`${path}: must be a mapping`);
  const weight = (args as Record<string, unknown>).hardPodAffinityWeight;
  if (weight === undefined) return {};
  const problem = hardPodAffinityWeightError(weight);
  if (problem) throw new Error(`${path}.hardPodAffinityWeight: ${problem}`);
  return { hardPodAffinityWeight: weight as number };
}

const PRE_FILTER_KEY = 'PreFilter' + INTER_POD_AFFINITY;
const PRE_SCORE_KEY = 'PreScore' + INTER_POD_AFFINITY;
const SKIP = new Status(Code.Skip);

/** Counts per topology pair (key and value of a node label), keyed `key\0value`. */
type TopologyCounts = Map<string, number>;

const pairKey = (key: string, value: string): string => `${key}\u0000${value}`;

function bump(counts: TopologyCounts, key: string, value: string, by: number): void {
  const k = pairKey(key, value);
  const n = (counts.get(k) ?? 0) + by;
  // Pairs that drop to zero go, as in Kubernetes: an empty map means "no pod matches anywhere".
  if (n === 0) counts.delete(k);
  else counts.set(k, n);
}

interface PreFilterState {
  info: PodAffinityInfo;
  pod: Pod;
  /** Existing pods' required anti-affinity terms selecting the incoming pod. */
  existingAntiAffinityCounts: TopologyCounts;
  /** Existing pods selected by all of the incoming pod's required affinity terms. */
  affinityCounts: TopologyCounts;
  /** Existing pods selected by the incoming pod's required anti-affinity terms. */
  antiAffinityCounts: TopologyCounts;
}

type Labels = Readonly<Record<string, string>>;

/**
 * Inter-pod affinity as Kubernetes schedules it. Filter: a node passes when, in its topology
 * domains, the pod's required affinity terms find their pods (or the pod is the first of a group
 * that selects itself), its required anti-affinity terms find none, and no existing pod's required
 * anti-affinity selects the pod. Score: preferred terms of the pod and of existing pods, and
 * existing pods' required affinity terms (weighted by hardPodAffinityWeight), summed per topology
 * domain and scaled between the lowest and highest node.
 */
export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = INTER_POD_AFFINITY;
  readonly hardPodAffinityWeight: number;

  constructor(
    args: unknown,
    private readonly handle: FrameworkHandle,
  ) {
    this.hardPodAffinityWeight =
      validateInterPodAffinityArgs(args, `${INTER_POD_AFFINITY} args`).hardPodAffinityWeight ??
      DEFAULT_HARD_POD_AFFINITY_WEIGHT;
  }

  preFilter(state: CycleState, pod: Pod): Status | undefined {
    const info = podAffinityInfo(pod);
    if (info.error) return Status.error(`parsing pod: ${info.error}`);
    const s: PreFilterState = {
      info,
      pod,
      existingAntiAffinityCounts: new Map(),
      affinityCounts: new Map(),
      antiAffinityCounts: new Map(),
    };
    const ownNamespaceLabels = this.handle.namespaceLabels(pod.metadata?.namespace ?? '');
    for (const nodeInfo of this.handle.nodeInfosWithRequiredAntiAffinity()) {
      const labels = nodeInfo.node?.metadata?.labels;
      if (!labels) continue;
      for (const existing of nodeInfo.podsWithRequiredAntiAffinity.values()) {
        for (const term of podAffinityInfo(existing).requiredAntiAffinity) {
          const value = labels[term.topologyKey];
          if (value !== undefined && termMatches(term, pod, ownNamespaceLabels))
            bump(s.existingAntiAffinityCounts, term.topologyKey, value, 1);
        }
      }
    }
    const affinity = info.requiredAffinity;
    const antiAffinity = info.requiredAntiAffinity;
    if (affinity.length > 0 || antiAffinity.length > 0) {
      const nsLabels = new NamespaceLabels(this.handle);
      for (const nodeInfo of this.handle.nodeInfos()) {
        const labels = nodeInfo.node?.metadata?.labels;
        if (!labels || nodeInfo.pods.size === 0) continue;
        for (const existing of nodeInfo.pods.values()) {
          const existingNsLabels = nsLabels.of(existing);
          if (affinity.length > 0 && allTermsMatch(affinity, existing, existingNsLabels)) {
            for (const term of affinity) {
              const value = labels[term.topologyKey];
              if (value !== undefined) bump(s.affinityCounts, term.topologyKey, value, 1);
            }
          }
          for (const term of antiAffinity) {
            const value = labels[term.topologyKey];
            if (value !== undefined && termMatches(term, existing, existingNsLabels))
              bump(s.antiAffinityCounts, term.topologyKey, value, 1);
          }
        }
      }
    }
    state.write(PRE_FILTER_KEY, s);
    return affinity.length === 0 && antiAffinity.length === 0 && s.existingAntiAffinityCounts.size === 0
      ? SKIP
      : undefined;
  }

  /** AddPod/RemovePod keep the topology counts right when preemption or nominated pods change a node copy. */
  preFilterExtensions(): PreFilterExtensions {
    return {
      addPod: (state, podToSchedule, podToAdd, nodeInfo) =>
        this.updateWithPod(state, podToSchedule, podToAdd, nodeInfo, 1),
      removePod: (state, podToSchedule, podToRemove, nodeInfo) =>
        this.updateWithPod(state, podToSchedule, podToRemove, nodeInfo, -1),
    };
  }

  /** Writes a copy of the PreFilter state with the pod's terms and labels counted (+1) or uncounted (-1). */
  private updateWithPod(
    state: CycleState,
    podToSchedule: Pod,
    other: Pod,
    nodeInfo: NodeInfo,
    sign: 1 | -1,
  ): Status | undefined {
    const s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (s === undefined) return Status.error(`reading "${PRE_FILTER_KEY}" from cycleState: not found`);
    const labels = nodeInfo.node?.metadata?.labels;
    if (!labels) return undefined;
    const next: PreFilterState = {
      ...s,
      existingAntiAffinityCounts: new Map(s.existingAntiAffinityCounts),
      affinityCounts: new Map(s.affinityCounts),
      antiAffinityCounts: new Map(s.antiAffinityCounts),
    };
    const ownNamespaceLabels = this.handle.namespaceLabels(podToSchedule.metadata?.namespace ?? '');
    for (const term of podAffinityInfo(other).requiredAntiAffinity) {
      const value = labels[term.topologyKey];
      if (value !== undefined && termMatches(term, podToSchedule, ownNamespaceLabels))
        bump(next.existingAntiAffinityCounts, term.topologyKey, value, sign);
    }
    const otherNamespaceLabels = this.handle.namespaceLabels(other.metadata?.namespace ?? '');
    const affinity = s.info.requiredAffinity;
    if (affinity.length > 0 && allTermsMatch(affinity, other, otherNamespaceLabels)) {
      for (const term of affinity) {
        const value = labels[term.topologyKey];
        if (value !== undefined) bump(next.affinityCounts, term.topologyKey, value, sign);
      }
    }
    for (const term of s.info.requiredAntiAffinity) {
      const value = labels[term.topologyKey];
      if (value !== undefined && termMatches(term, other, otherNamespaceLabels))
        bump(next.antiAffinityCounts, term.topologyKey, value, sign);
    }
    state.write(PRE_FILTER_KEY, next);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    let s = state.read<PreFilterState>(PRE_FILTER_KEY);
    if (s === undefined || s.pod !== pod) {
      const pre = this.preFilter(state, pod);
      if (pre !== undefined && pre.code === Code.Error) return pre;
      s = state.read<PreFilterState>(PRE_FILTER_KEY)!;
    }
    const { info } = s;
    if (
      info.requiredAffinity.length === 0 &&
      info.requiredAntiAffinity.length === 0 &&
      s.existingAntiAffinityCounts.size === 0
    )
      return undefined;
    const labels: Labels = nodeInfo.node?.metadata?.labels ?? {};
    if (!satisfiesPodAffinity(s, labels, this.handle))
      return Status.unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    if (!satisfiesPodAntiAffinity(s, labels))
      return new Status(Code.Unschedulable, [ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH]);
    if (!satisfiesExistingPodsAntiAffinity(s, labels))
      return new Status(Code.Unschedulable, [ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH]);
    return undefined;
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined {
    const scores = new Map<string, Map<string, number>>();
    state.write(PRE_SCORE_KEY, scores);
    if (nodes.length === 0) return SKIP;
    const info = podAffinityInfo(pod);
    if (info.error) return Status.error(`parsing pod: ${info.error}`);
    const hasConstraints = info.preferredAffinity.length > 0 || info.preferredAntiAffinity.length > 0;
    // Without preferred terms of its own, only pods with affinity can score the pod.
    const candidateNodes = hasConstraints ? this.handle.nodeInfos() : this.handle.nodeInfosWithAffinity();
    if (candidateNodes.length === 0) return SKIP;
    const podNsLabels = this.handle.namespaceLabels(pod.metadata?.namespace ?? '');
    const nsLabels = new NamespaceLabels(this.handle);
    const add = (key: string, value: string, by: number): void => {
      let values = scores.get(key);
      if (values === undefined) scores.set(key, (values = new Map()));
      values.set(value, (values.get(value) ?? 0) + by);
    };
    // Terms of one pod selecting the other pod count in the topology domain of the existing pod's node.
    const processTerms = (
      terms: readonly WeightedAffinityTerm[],
      target: Pod,
      targetNsLabels: Labels | undefined,
      labels: Labels,
      sign: 1 | -1,
    ): void => {
      for (const t of terms) processTerm(t, t.weight, target, targetNsLabels, labels, sign);
    };
    const processTerm = (
      term: AffinityTerm,
      weight: number,
      target: Pod,
      targetNsLabels: Labels | undefined,
      labels: Labels,
      sign: 1 | -1,
    ): void => {
      const value = labels[term.topologyKey];
      if (value !== undefined && termMatches(term, target, targetNsLabels))
        add(term.topologyKey, value, weight * sign);
    };
    for (const nodeInfo of candidateNodes) {
      const candidates = hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity;
      if (candidates.size === 0) continue;
      const labels = nodeInfo.node?.metadata?.labels;
      if (!labels || Object.keys(labels).length === 0) continue;
      for (const existing of candidates.values()) {
        if (hasConstraints) {
          const existingNsLabels = nsLabels.of(existing);
          processTerms(info.preferredAffinity, existing, existingNsLabels, labels, 1);
          processTerms(info.preferredAntiAffinity, existing, existingNsLabels, labels, -1);
        }
        const other = podAffinityInfo(existing);
        if (this.hardPodAffinityWeight > 0)
          for (const t of other.requiredAffinity)
            processTerm(t, this.hardPodAffinityWeight, pod, podNsLabels, labels, 1);
        processTerms(other.preferredAffinity, pod, podNsLabels, labels, 1);
        processTerms(other.preferredAntiAffinity, pod, podNsLabels, labels, -1);
      }
    }
    // Every node would score 0.
    return scores.size === 0 ? SKIP : undefined;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const scores = state.read<Map<string, Map<string, number>>>(PRE_SCORE_KEY);
    if (scores === undefined || scores.size === 0) return 0;
    const labels = nodeInfo.node?.metadata?.labels;
    if (!labels) return 0;
    let total = 0;
    for (const [key, values] of scores) {
      const value = labels[key];
      if (value !== undefined) total += values.get(value) ?? 0;
    }
    return total;
  }

  /** Scales scores linearly so the lowest node gets 0 and the highest MaxNodeScore. */
  normalizeScore(state: CycleState, _pod: Pod, scores: Float64Array): Status | undefined {
    const topology = state.read<Map<string, Map<string, number>>>(PRE_SCORE_KEY);
    if (topology === undefined || topology.size === 0) return undefined;
    let min = Infinity;
    let max = -Infinity;
    for (const s of scores) {
      if (s < min) min = s;
      if (s > max) max = s;
    }
    const diff = max - min;
    for (let i = 0; i < scores.length; i++)
      scores[i] = diff > 0 ? Math.trunc((MAX_NODE_SCORE * (scores[i]! - min)) / diff) : 0;
    return undefined;
  }
}

/** Namespace labels looked up once per namespace within a cycle. */
class NamespaceLabels {
  private readonly seen = new Map<string, Labels | undefined>();

  constructor(private readonly handle: FrameworkHandle) {}

  of(pod: Pod): Labels | undefined {
    const ns = pod.metadata?.namespace ?? '';
    if (this.seen.has(ns)) return this.seen.get(ns);
    const labels = this.handle.namespaceLabels(ns);
    this.seen.set(ns, labels);
    return labels;
  }
}

/**
 * Every required affinity term's topology key is on the node and its domain holds a matching pod;
 * or no pod anywhere matches the terms and the pod matches them itself (the first of a group).
 */
function satisfiesPodAffinity(s: PreFilterState, labels: Labels, handle: FrameworkHandle): boolean {
  const terms = s.info.requiredAffinity;
  if (terms.length === 0) return true;
  let podsExist = true;
  for (const term of terms) {
    const value = labels[term.topologyKey];
    if (value === undefined) return false;
    if ((s.affinityCounts.get(pairKey(term.topologyKey, value)) ?? 0) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return (
    s.affinityCounts.size === 0 &&
    allTermsMatch(terms, s.pod, handle.namespaceLabels(s.pod.metadata?.namespace ?? ''))
  );
}

/** No required anti-affinity term finds a matching pod in the node's domain of its topology key. */
function satisfiesPodAntiAffinity(s: PreFilterState, labels: Labels): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  for (const term of s.info.requiredAntiAffinity) {
    const value = labels[term.topologyKey];
    if (value !== undefined && (s.antiAffinityCounts.get(pairKey(term.topologyKey, value)) ?? 0) > 0)
      return false;
  }
  return true;
}

/** No existing pod's required anti-affinity selecting the pod covers one of the node's domains. */
function satisfiesExistingPodsAntiAffinity(s: PreFilterState, labels: Labels): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  for (const key of Object.keys(labels))
    if ((s.existingAntiAffinityCounts.get(pairKey(key, labels[key]!)) ?? 0) > 0) return false;
  return true;
}
