import { getScaledValueFromIntOrPercent, IntOrStringValue } from './scaledValue';

/** How far a rolling update may go above and below the desired count. */
export interface Fenceposts {
  maxSurge: number;
  maxUnavailable: number;
}

/**
 * A Deployment's rolling-update bounds as the Kubernetes deployment controller resolves them
 * (deploymentutil.ResolveFenceposts): maxSurge percentage rounded UP, maxUnavailable percentage
 * rounded DOWN, a missing value counting as 0; and if both come out 0, maxUnavailable is 1 so the
 * rollout can progress.
 *
 * Spec document 2 says "percentage rounded up" for maxUnavailable too; Kubernetes really rounds it
 * down (so 25% of 3 replicas allows 0 unavailable, not 1, while surge allows 1), and orch follows
 * Kubernetes so that rollouts proceed exactly as users know them.
 */
export function resolveFenceposts(
  maxSurge: IntOrStringValue | null | undefined,
  maxUnavailable: IntOrStringValue | null | undefined,
  desired: number,
): Fenceposts {
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { maxSurge: surge, maxUnavailable: unavailable };
}

/**
 * A DaemonSet's rolling-update bounds as the Kubernetes daemon set controller resolves them
 * (UnavailableCount / SurgeCount): both percentages of the number of nodes that should run the
 * daemon pod, rounded UP; a missing value counts as 0; if both are 0 while some node should run
 * the pod, maxUnavailable is 1.
 */
export function resolveDaemonSetFenceposts(
  maxSurge: IntOrStringValue | null | undefined,
  maxUnavailable: IntOrStringValue | null | undefined,
  desiredNumberScheduled: number,
): Fenceposts {
  const unavailable = getScaledValueFromIntOrPercent(maxUnavailable ?? 0, desiredNumberScheduled, true);
  const surge = getScaledValueFromIntOrPercent(maxSurge ?? 0, desiredNumberScheduled, true);
  if (desiredNumberScheduled > 0 && unavailable === 0 && surge === 0) {
    return { maxSurge: 0, maxUnavailable: 1 };
  }
  return { maxSurge: surge, maxUnavailable: unavailable };
}
