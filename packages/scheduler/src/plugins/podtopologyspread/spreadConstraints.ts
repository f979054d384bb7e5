import {
  findUntoleratedTaint,
  labelSelectorAsSelector,
  RequiredNodeAffinity,
  type LabelsSelector,
  type Node,
  type Pod,
} from '@orch/api';
import type { NodeInfo } from '../../framework/nodeInfo';

/** A pod's topology spread constraint, compiled once per scheduling cycle. */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  /** The pods counted: the constraint's selector with the pod's matchLabelKeys values added. */
  selector: LabelsSelector;
  /** Fewer eligible domains than this count the global minimum as 0. */
  minDomains: number;
  /** Nodes the pod's node affinity and selector reject are left out of the counts (Honor). */
  honorNodeAffinity: boolean;
  /** Nodes with taints the pod does not tolerate are left out of the counts (Honor). */
  honorNodeTaints: boolean;
}

type WhenUnsatisfiable = 'DoNotSchedule' | 'ScheduleAnyway';

/**
 * The pod's constraints of one kind, compiled. An invalid selector makes the constraint select
 * nothing (validation keeps such pods out of the API).
 */
export function spreadConstraints(pod: Pod, when: WhenUnsatisfiable): SpreadConstraint[] {
  const labels = pod.metadata?.labels ?? {};
  return (pod.spec?.topologySpreadConstraints ?? [])
    .filter((c) => c.whenUnsatisfiable === when)
    .map((c) => {
      const matchLabels = { ...(c.labelSelector?.matchLabels ?? {}) };
      for (const key of c.matchLabelKeys ?? []) if (labels[key] !== undefined) matchLabels[key] = labels[key];
      let selector: LabelsSelector;
      try {
        selector = labelSelectorAsSelector(c.labelSelector ? { ...c.labelSelector, matchLabels } : undefined);
      } catch {
        selector = labelSelectorAsSelector(undefined);
      }
      return {
        maxSkew: c.maxSkew,
        topologyKey: c.topologyKey,
        selector,
        minDomains: c.minDomains ?? 1,
        honorNodeAffinity: c.nodeAffinityPolicy !== 'Ignore',
        honorNodeTaints: c.nodeTaintsPolicy === 'Honor',
      };
    });
}

/** Whether the node has a label for every constraint's topology key. */
export function hasAllTopologyKeys(node: Node, constraints: readonly SpreadConstraint[]): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const c of constraints) if (labels[c.topologyKey] === undefined) return false;
  return true;
}

/** Decides which nodes a constraint counts, per its node inclusion policies. */
export class NodeInclusion {
  private readonly affinity: RequiredNodeAffinity;

  constructor(private readonly pod: Pod) {
    this.affinity = new RequiredNodeAffinity(pod);
  }

  includes(c: SpreadConstraint, node: Node): boolean {
    if (c.honorNodeAffinity && !this.affinity.isEmpty && !this.affinity.matches(node)) return false;
    if (c.honorNodeTaints) {
      const untolerated = findUntoleratedTaint(
        node.spec?.taints,
        this.pod.spec?.tolerations,
        (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
      );
      if (untolerated) return false;
    }
    return true;
  }
}

/** The pods on a node the constraint counts: in the pod's namespace, selected, not terminating. */
export function countMatching(c: SpreadConstraint, namespace: string, nodeInfo: NodeInfo): number {
  let n = 0;
  for (const p of nodeInfo.pods.values()) if (podCounts(c, namespace, p)) n++;
  return n;
}

/** Whether the constraint counts `p` for a pod in `namespace`. */
export function podCounts(c: SpreadConstraint, namespace: string, p: Pod): boolean {
  return (
    !p.metadata?.deletionTimestamp &&
    (p.metadata?.namespace ?? '') === namespace &&
    c.selector.matches(p.metadata?.labels ?? {})
  );
}

/** The key of a topology domain in count maps. */
export function pairKey(topologyKey: string, value: string): string {
  return `${topologyKey}\u0000${value}`;
}
