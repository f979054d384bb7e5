import {
  getScaledValueFromIntOrPercent,
  parseTime,
  setCondition,
  type ConditionLike,
  type Pod,
  type PodDisruptionBudget,
} from '@orch/api';
import { isPodReady } from '../controller/podUtil';

/** How long an evicted pod may take to go before its budget counts it again (Kubernetes' DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** The condition a budget's status carries: whether it allows a disruption now. */
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';

export type PdbStatus = NonNullable<PodDisruptionBudget['status']>;
type Condition = NonNullable<PdbStatus['conditions']>[number];

/** The pods a budget counts and the scale they should have. */
export interface ExpectedCount {
  /** Pods there should be: the pods themselves, or the replicas their controllers want. */
  expectedCount: number;
  desiredHealthy: number;
  /** Pods without a controller, left out of a count taken from controllers. */
  unmanagedPods: string[];
}

/**
 * The replicas the controllers of `pods` want, each controller counted once (Kubernetes'
 * getExpectedScale). `scaleOf` gives a pod's controller (its uid and replicas), or undefined when it
 * has none it can read; pods without a controllerRef are unmanaged and skipped.
 */
export function expectedScale(
  pods: readonly Pod[],
  scaleOf: (pod: Pod) => { uid: string; replicas: number } | undefined | 'unmanaged',
): { expectedCount: number; unmanagedPods: string[] } {
  const scales = new Map<string, number>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const found = scaleOf(pod);
    if (found === 'unmanaged') {
      unmanagedPods.push(pod.metadata?.name ?? '');
      continue;
    }
    if (!found) throw new Error(`found no controllers for pod "${pod.metadata?.name ?? ''}"`);
    scales.set(found.uid, found.replicas);
  }
  let expectedCount = 0;
  for (const replicas of scales.values()) expectedCount += replicas;
  return { expectedCount, unmanagedPods };
}

/**
 * The budget's expected and desired healthy counts (Kubernetes' getExpectedPodCount): maxUnavailable
 * and a percentage minAvailable are taken of the controllers' scale, a number minAvailable of the
 * pods there are.
 */
export function expectedPodCount(
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  scale: () => { expectedCount: number; unmanagedPods: string[] },
): ExpectedCount {
  const { maxUnavailable, minAvailable } = pdb.spec ?? {};
  if (maxUnavailable !== undefined) {
    const { expectedCount, unmanagedPods } = scale();
    const unavailable = getScaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
    return { expectedCount, desiredHealthy: Math.max(0, expectedCount - unavailable), unmanagedPods };
  }
  if (typeof minAvailable === 'number') {
    return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
  }
  if (typeof minAvailable === 'string') {
    const { expectedCount, unmanagedPods } = scale();
    const desiredHealthy = getScaledValueFromIntOrPercent(minAvailable, expectedCount, true);
    return { expectedCount, desiredHealthy, unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/**
 * The evictions still expected to complete (Kubernetes' buildDisruptedPodMap): the budget's
 * disruptedPods entries of pods not yet being deleted, less than DELETION_TIMEOUT_MS old; `recheckAt`
 * is when the first of them runs out, `overdue` the pods whose deletion never came.
 */
export function disruptedPodMap(
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  now: number,
): { disrupted: Record<string, string>; recheckAt?: number; overdue: Pod[] } {
  const recorded = pdb.status?.disruptedPods ?? {};
  const disrupted: Record<string, string> = {};
  const overdue: Pod[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = recorded[pod.metadata?.name ?? ''];
    if (at === undefined) continue;
    const expectedDeletion = parseTime(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < now) {
      overdue.push(pod);
      continue;
    }
    if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
    disrupted[pod.metadata?.name ?? ''] = at;
  }
  return { disrupted, recheckAt, overdue };
}

/**
 * Ready pods not being deleted and not just evicted (Kubernetes' countHealthyPods); `disrupted` holds
 * only the evictions still pending ({@link disruptedPodMap}).
 */
export function countHealthyPods(pods: readonly Pod[], disrupted: Record<string, string>): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (disrupted[pod.metadata?.name ?? ''] !== undefined) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** The budget's conditions with DisruptionAllowed set (Kubernetes' SetStatusCondition, see setCondition). */
function setDisruptionAllowed(
  conditions: readonly Condition[] | undefined,
  status: 'True' | 'False',
  reason: string,
  message: string,
  observedGeneration: number | undefined,
  now: number,
): Condition[] {
  const condition: ConditionLike = {
    type: DISRUPTION_ALLOWED,
    status,
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
    reason,
    message,
  };
  // the declared condition's fields are all optional; the ones set here are the ones setCondition reads
  return setCondition(
    conditions as readonly ConditionLike[] | undefined,
    condition,
    () => now,
  ) as Condition[];
}

/** The status a budget should have (Kubernetes' updatePdbStatus). */
export function budgetStatus(
  pdb: PodDisruptionBudget,
  counts: { currentHealthy: number; desiredHealthy: number; expectedCount: number },
  disrupted: Record<string, string>,
  now: number,
): PdbStatus {
  const { currentHealthy, desiredHealthy, expectedCount } = counts;
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const observedGeneration = pdb.metadata?.generation;
  const allowed = disruptionsAllowed > 0;
  return {
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
    ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    conditions: setDisruptionAllowed(
      pdb.status?.conditions,
      allowed ? 'True' : 'False',
      allowed ? 'SufficientPods' : 'InsufficientPods',
      '',
      observedGeneration,
      now,
    ),
  };
}

/** The status of a budget whose counts could not be taken: no disruption allowed (Kubernetes' failSafe). */
export function failSafeStatus(pdb: PodDisruptionBudget, error: string, now: number): PdbStatus {
  const status = pdb.status ?? {};
  return {
    ...status,
    disruptionsAllowed: 0,
    conditions: setDisruptionAllowed(
      status.conditions,
      'False',
      'SyncFailed',
      error,
      status.observedGeneration,
      now,
    ),
  };
}
