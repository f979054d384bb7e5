import { labelSelectorAsSelector, type Pod, type PodDisruptionBudget } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import type { FrameworkHandle } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import { podPriority } from '../prioritysort/prioritySort';

/** Kubernetes' reason for a node without lower-priority pods. */
export const ERR_NO_PREEMPTION_VICTIMS = 'No preemption victims found for incoming pod';

/** When the pod started (status.startTime); a pod that has not started counts as starting now. */
export function podStartTime(pod: Pod, now: number = Date.now()): number {
  const t = pod.status?.startTime ? Date.parse(pod.status.startTime) : NaN;
  return Number.isNaN(t) ? now : t;
}

/** Kubernetes' MoreImportantPod: higher priority first, then the one that started earlier. */
export function moreImportantPod(a: Pod, b: Pod, now: number = Date.now()): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/**
 * Splits pods (most important first, order kept) into those whose eviction would break a
 * PodDisruptionBudget and the others. Each matching budget of the pod's namespace (a budget with an
 * empty selector matches nothing) is charged once per pod not already among its disruptedPods; a
 * pod that takes a budget below zero violates it.
 */
export function filterPodsWithPDBViolation(
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: Pod[]; nonViolating: Pod[] } {
  const allowed = pdbs.map((pdb) => pdb.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map((pdb) => {
    try {
      const selector = labelSelectorAsSelector(pdb.spec?.selector);
      return selector.empty() ? undefined : selector;
    } catch {
      return undefined;
    }
  });
  const violating: Pod[] = [];
  const nonViolating: Pod[] = [];
  for (const pod of pods) {
    let violated = false;
    const labels = pod.metadata?.labels;
    // A pod without labels matches no budget.
    if (labels && Object.keys(labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        if (pdb.metadata?.namespace !== pod.metadata?.namespace) return;
        const selector = selectors[i];
        if (selector === undefined || !selector.matches(labels)) return;
        // Already processed by the API server (an eviction in flight): not charged again.
        if (pdb.status?.disruptedPods?.[pod.metadata?.name ?? ''] !== undefined) return;
        allowed[i]!--;
        if (allowed[i]! < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(pod);
  }
  return { violating, nonViolating };
}

export interface NodeVictims {
  /** The pods to evict, in the order they were found unreprievable. */
  pods: Pod[];
  /** How many of them break a PodDisruptionBudget. */
  numPDBViolations: number;
}

/**
 * Kubernetes' SelectVictimsOnNode, on a copy of the node and cycle state: remove every pod of lower
 * priority; if the pod then fits, add back (reprieve) as many as possible, most important first,
 * those breaking a PodDisruptionBudget before the others. Returns the victims or why the node
 * cannot help.
 */
export function selectVictimsOnNode(
  handle: FrameworkHandle,
  state: CycleState,
  pod: Pod,
  nodeInfo: NodeInfo,
  pdbs: readonly PodDisruptionBudget[],
): { victims?: NodeVictims; status: Status } {
  const priority = podPriority(pod);
  const potential: Pod[] = [];
  for (const p of [...nodeInfo.pods.values()]) {
    if (podPriority(p) >= priority) continue;
    potential.push(p);
    nodeInfo.removePod(p);
    const s = handle.runPreFilterExtensionRemovePod(state, pod, p, nodeInfo);
    if (!s.isSuccess()) return { status: s };
  }
  // The node did not change: evaluating it again cannot help.
  if (potential.length === 0) return { status: Status.unresolvable(ERR_NO_PREEMPTION_VICTIMS) };
  const fits = handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
  if (!fits.isSuccess()) return { status: fits };

  const now = Date.now();
  potential.sort((a, b) => (moreImportantPod(a, b, now) ? -1 : moreImportantPod(b, a, now) ? 1 : 0));
  const { violating, nonViolating } = filterPodsWithPDBViolation(potential, pdbs);
  const victims: Pod[] = [];
  let numPDBViolations = 0;
  /** Adds the pod back; keeps it only if the preemptor still fits. */
  const reprieve = (p: Pod): Status | boolean => {
    nodeInfo.addPod(p);
    const added = handle.runPreFilterExtensionAddPod(state, pod, p, nodeInfo);
    if (!added.isSuccess()) return added;
    if (handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo).isSuccess()) return true;
    nodeInfo.removePod(p);
    const removed = handle.runPreFilterExtensionRemovePod(state, pod, p, nodeInfo);
    if (!removed.isSuccess()) return removed;
    victims.push(p);
    return false;
  };
  for (const p of violating) {
    const r = reprieve(p);
    if (r instanceof Status) return { status: r };
    if (!r) numPDBViolations++;
  }
  for (const p of nonViolating) {
    const r = reprieve(p);
    if (r instanceof Status) return { status: r };
  }
  return { victims: { pods: victims, numPDBViolations }, status: new Status(Code.Success) };
}
