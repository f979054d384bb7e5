import type { Deployment, ReplicaSet } from '@orch/api';
import {
  activeReplicaSets,
  availableReplicas,
  byCreation,
  desiredReplicas,
  findActiveOrLatest,
  isRollingUpdate,
  isSaturated,
  MAX_REPLICAS_ANNOTATION,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  replicasOf,
  specReplicas,
} from './deploymentUtil';

/** A ReplicaSet to resize. */
export interface ScaleAction {
  rs: ReplicaSet;
  replicas: number;
}

const nameOf = (rs: ReplicaSet): string => rs.metadata?.name ?? '';

/** Working copies whose spec.replicas the planners change. */
function copies(rss: readonly ReplicaSet[]): ReplicaSet[] {
  return rss.map((rs) => ({ ...rs, spec: { ...rs.spec } }) as ReplicaSet);
}

function merge(actions: ScaleAction[], rs: ReplicaSet, replicas: number): void {
  const existing = actions.find((a) => nameOf(a.rs) === nameOf(rs));
  if (existing) existing.replicas = replicas;
  else actions.push({ rs, replicas });
}

/** The new ReplicaSet's next size, or undefined when it stays (reconcileNewReplicaSet). */
export function reconcileNewReplicaSet(
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet,
  d: Deployment,
): number | undefined {
  const desired = desiredReplicas(d);
  if (replicasOf(newRS) === desired) return undefined;
  if (replicasOf(newRS) > desired) return desired;
  const next = newRSNewReplicas(d, allRSs, newRS);
  return next === replicasOf(newRS) ? undefined : next;
}

/**
 * How far old ReplicaSets shrink in one rolling step (reconcileOldReplicaSets): first unhealthy
 * replicas of the oldest sets, then available ones while at least replicas − maxUnavailable stay
 * available.
 */
export function reconcileOldReplicaSets(
  allRSs: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): ScaleAction[] {
  const olds = copies(oldRSs).filter((rs) => replicasOf(rs) > 0);
  if (specReplicas(olds) === 0) return [];
  const allPods = specReplicas(allRSs);
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const newUnavailable = replicasOf(newRS) - (newRS?.status?.availableReplicas ?? 0);
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];
  const actions: ScaleAction[] = [];
  // Unhealthy replicas first.
  olds.sort(byCreation);
  let cleaned = 0;
  for (const rs of olds) {
    if (cleaned >= maxScaledDown) break;
    if (replicasOf(rs) === 0) continue;
    const healthy = rs.status?.availableReplicas ?? 0;
    if (replicasOf(rs) === healthy) continue;
    const count = Math.min(maxScaledDown - cleaned, replicasOf(rs) - healthy);
    const next = replicasOf(rs) - count;
    if (next > replicasOf(rs)) break;
    cleaned += count;
    rs.spec = { ...rs.spec!, replicas: next };
    merge(actions, rs, next);
  }
  // Then available ones, keeping minAvailable.
  const all = [...olds, ...(newRS ? [newRS] : [])];
  const availablePods = availableReplicas(all);
  if (availablePods > minAvailable) {
    const total = availablePods - minAvailable;
    let scaled = 0;
    for (const rs of olds) {
      if (scaled >= total) break;
      if (replicasOf(rs) === 0) continue;
      const count = Math.min(replicasOf(rs), total - scaled);
      const next = replicasOf(rs) - count;
      scaled += count;
      rs.spec = { ...rs.spec!, replicas: next };
      merge(actions, rs, next);
    }
  }
  return actions;
}

/** One rolling-update step: grow the new set, or else shrink old ones (rolloutRolling). */
export function rollingUpdateStep(
  newRS: ReplicaSet,
  oldRSs: readonly ReplicaSet[],
  d: Deployment,
): ScaleAction[] {
  const allRSs = [...oldRSs, newRS];
  const next = reconcileNewReplicaSet(allRSs, newRS, d);
  if (next !== undefined) return [{ rs: newRS, replicas: next }];
  return reconcileOldReplicaSets(allRSs, oldRSs, newRS, d);
}

/** Kubernetes' rounding of a float64 to int32 (math.Round: half away from zero). */
function roundToInt(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

/** The size change proportional to the set's share of the deployment (getReplicaSetFraction). */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (desiredReplicas(d) === 0) return -replicasOf(rs);
  const deploymentReplicas = desiredReplicas(d) + maxSurge(d);
  const annotated = Number(rs.metadata?.annotations?.[MAX_REPLICAS_ANNOTATION]);
  const base = Number.isFinite(annotated) && annotated > 0 ? annotated : (d.status?.replicas ?? 0);
  if (base === 0) return 0;
  return roundToInt((replicasOf(rs) * deploymentReplicas) / base) - replicasOf(rs);
}

/**
 * The resizes of a scaling event (Kubernetes' scale): the one active set takes the new size; a
 * saturated new set lets the old ones go to 0; during a rolling update the difference is spread
 * over the active sets in proportion to their size, the rest going to the largest.
 */
export function scalePlan(
  d: Deployment,
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ScaleAction[] {
  const desired = desiredReplicas(d);
  const single = findActiveOrLatest(newRS, oldRSs);
  if (single) return replicasOf(single) === desired ? [] : [{ rs: single, replicas: desired }];
  if (isSaturated(d, newRS)) return activeReplicaSets(oldRSs).map((rs) => ({ rs, replicas: 0 }));
  if (!isRollingUpdate(d)) return [];
  const all = activeReplicaSets([...oldRSs, newRS]);
  const allowed = desired > 0 ? desired + maxSurge(d) : 0;
  const toAdd = allowed - specReplicas(all);
  if (toAdd === 0) return [];
  // Larger first; newer first when growing, older first when shrinking.
  all.sort((a, b) => replicasOf(b) - replicasOf(a) || (toAdd > 0 ? byCreation(b, a) : byCreation(a, b)));
  let added = 0;
  const sizes = new Map<ReplicaSet, number>();
  for (const rs of all) {
    let proportion = 0;
    if (replicasOf(rs) !== 0 && added !== toAdd) {
      const fraction = replicaSetFraction(rs, d);
      const allowedLeft = toAdd - added;
      proportion = toAdd > 0 ? Math.min(fraction, allowedLeft) : Math.max(fraction, allowedLeft);
    }
    sizes.set(rs, replicasOf(rs) + proportion);
    added += proportion;
  }
  const leftover = toAdd - added;
  if (leftover !== 0 && all.length > 0) sizes.set(all[0]!, Math.max(0, sizes.get(all[0]!)! + leftover));
  return all.map((rs) => ({ rs, replicas: sizes.get(rs)! }));
}
