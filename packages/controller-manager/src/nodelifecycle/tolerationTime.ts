import { parseTime, toleratesTaint, type Taint, type Toleration } from '@orch/api';

/**
 * For each taint, the first toleration that tolerates it; `allTolerated` false (and no tolerations)
 * when some taint is not tolerated (Kubernetes' GetMatchingTolerations).
 */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
): { allTolerated: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = (tolerations ?? []).find((x) => toleratesTaint(x, taint));
    if (!t) return { allTolerated: false, used: [] };
    used.push(t);
  }
  return { allTolerated: true, used };
}

/**
 * The shortest tolerationSeconds of `tolerations` in ms: 0 when one is 0 or less (or there are
 * none), -1 when none has tolerationSeconds (tolerated for ever).
 */
export function minTolerationMs(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

/** When a pod goes: never (undefined), or at a time (at or before now: at once). */
export type EvictionTime = { at: number } | undefined;

/**
 * When a pod with `tolerations` on a node with the NoExecute `taints` is to be deleted: at once if
 * some taint is not tolerated; never if every taint is tolerated for ever; otherwise at the earliest
 * end of a toleration: its tolerationSeconds (0 or less: at once) after the taint's timeAdded, or
 * after `firstSeen(taint)` for a taint without one.
 */
export function evictionTime(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
  now: number,
  firstSeen: (taint: Taint) => number,
): EvictionTime {
  if (taints.length === 0) return undefined;
  const { allTolerated, used } = matchingTolerations(taints, tolerations);
  if (!allTolerated) return { at: now };
  let at = Infinity;
  for (let i = 0; i < taints.length; i++) {
    const ms = minTolerationMs([used[i]!]);
    if (ms < 0) continue;
    if (ms === 0) return { at: now };
    at = Math.min(at, taintTime(taints[i]!, firstSeen) + ms);
  }
  return at === Infinity ? undefined : { at };
}

function taintTime(taint: Taint, firstSeen: (taint: Taint) => number): number {
  if (taint.timeAdded) {
    try {
      return parseTime(taint.timeAdded);
    } catch {
      // An unreadable timeAdded counts from when the taint was first seen.
    }
  }
  return firstSeen(taint);
}
