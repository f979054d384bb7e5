import type { Pod } from '@orch/api';
import { podPriority } from '../prioritysort/prioritySort';
import type { NodeVictims } from './selectVictimsOnNode';
import { podStartTime } from './selectVictimsOnNode';

/** A node where preemption makes room for the pod, with the pods it would evict. */
export interface Candidate {
  name: string;
  victims: NodeVictims;
}

/** Shifts priorities (int32) to positive numbers so that more victims always weigh more. */
const PRIORITY_OFFSET = 2 ** 31;

/**
 * The earliest start time among the victims of the highest priority; undefined without victims.
 */
export function earliestStartTimeOfHighestPriority(pods: readonly Pod[], now: number): number | undefined {
  let best: { priority: number; start: number } | undefined;
  for (const p of pods) {
    const priority = podPriority(p);
    const start = podStartTime(p, now);
    if (!best || priority > best.priority || (priority === best.priority && start < best.start))
      best = { priority, start };
  }
  return best?.start;
}

/**
 * Kubernetes' pickOneNodeForPreemption: each criterion in turn keeps the candidates with the best
 * score, until one remains: fewest PodDisruptionBudget violations; lowest priority of the first
 * victim (the most important one); smallest sum of victim priorities; fewest victims; latest
 * start of the highest-priority victims. Ties after all of them go to the first candidate.
 */
export function pickOneNodeForPreemption(
  candidates: readonly Candidate[],
  now: number = Date.now(),
): Candidate | undefined {
  if (candidates.length === 0) return undefined;
  // Scores: higher is better.
  const scoreFuncs: ((c: Candidate) => number)[] = [
    (c) => -c.victims.numPDBViolations,
    (c) => (c.victims.pods.length === 0 ? Infinity : -podPriority(c.victims.pods[0]!)),
    (c) => -c.victims.pods.reduce((sum, p) => sum + podPriority(p) + PRIORITY_OFFSET, 0),
    (c) => -c.victims.pods.length,
    (c) => earliestStartTimeOfHighestPriority(c.victims.pods, now) ?? -Infinity,
  ];
  let remaining = [...candidates];
  for (const score of scoreFuncs) {
    let max = -Infinity;
    let selected: Candidate[] = [];
    for (const c of remaining) {
      const s = score(c);
      if (s > max) {
        max = s;
        selected = [];
      }
      if (s === max) selected.push(c);
    }
    if (selected.length === 1) return selected[0];
    remaining = selected;
  }
  return remaining[0];
}
