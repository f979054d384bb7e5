import { formatTime, parseTime, type Deployment, type ReplicaSet } from '@orch/api';
import {
  actualReplicas,
  availableReplicas,
  desiredReplicas,
  maxUnavailable,
  readyReplicas,
  specReplicas,
  type DeploymentCondition,
  type DeploymentStatus,
} from './deploymentUtil';

/** Condition reasons of the deployment controller. */
export const Reasons = {
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewReplicaSet: 'FoundNewReplicaSet',
  NewRSAvailable: 'NewReplicaSetAvailable',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  TimedOut: 'ProgressDeadlineExceeded',
  Paused: 'DeploymentPaused',
  Resumed: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  FailedRSCreate: 'ReplicaSetCreateError',
} as const;

export function newCondition(
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): DeploymentCondition {
  const t = formatTime(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(
  status: DeploymentStatus | undefined,
  type: string,
): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * Sets a condition as the deployment controller does (SetDeploymentCondition): nothing changes when
 * status and reason are the same; the transition time is kept while the status stays.
 */
export function setCondition(status: DeploymentStatus, cond: DeploymentCondition): void {
  const current = getCondition(status, cond.type ?? '');
  if (current && current.status === cond.status && current.reason === cond.reason) return;
  const next = { ...cond };
  if (current && current.status === cond.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== cond.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}

export const hasProgressDeadline = (d: Deployment): boolean =>
  d.spec?.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== 2147483647;

/** Whether the Progressing condition shows no progress within the deadline (DeploymentTimedOut). */
export function deploymentTimedOut(d: Deployment, status: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const cond = getCondition(status, 'Progressing');
  if (!cond) return false;
  if (cond.reason === Reasons.NewRSAvailable) return false;
  if (cond.reason === Reasons.TimedOut) return true;
  if (!cond.lastUpdateTime) return false;
  return parseTime(cond.lastUpdateTime) + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < now;
}

/** The deployment's status from its ReplicaSets (calculateStatus), with the Available condition. */
export function calculateStatus(
  allRSs: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  now: number,
): DeploymentStatus {
  const available = availableReplicas(allRSs);
  const unavailable = Math.max(0, specReplicas(allRSs) - available);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation ?? 0,
    replicas: actualReplicas(allRSs),
    updatedReplicas: actualReplicas([newRS]),
    readyReplicas: readyReplicas(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  status.conditions = (d.status?.conditions ?? []).map((c) => ({ ...c }));
  if (available >= desiredReplicas(d) - maxUnavailable(d)) {
    setCondition(
      status,
      newCondition(
        'Available',
        'True',
        Reasons.MinimumReplicasAvailable,
        'Deployment has minimum availability.',
        now,
      ),
    );
  } else {
    setCondition(
      status,
      newCondition(
        'Available',
        'False',
        Reasons.MinimumReplicasUnavailable,
        'Deployment does not have minimum availability.',
        now,
      ),
    );
  }
  return status;
}

/** Status equality for deciding whether to write (conditions included). */
export function sameStatus(a: DeploymentStatus | undefined, b: DeploymentStatus): boolean {
  const norm = (s: DeploymentStatus | undefined): string =>
    JSON.stringify({
      observedGeneration: s?.observedGeneration ?? 0,
      replicas: s?.replicas ?? 0,
      updatedReplicas: s?.updatedReplicas ?? 0,
      readyReplicas: s?.readyReplicas ?? 0,
      availableReplicas: s?.availableReplicas ?? 0,
      unavailableReplicas: s?.unavailableReplicas ?? 0,
      collisionCount: s?.collisionCount,
      conditions: s?.conditions ?? [],
    });
  return norm(a) === norm(b);
}
