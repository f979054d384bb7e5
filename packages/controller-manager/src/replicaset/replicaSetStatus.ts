import { formatTime, type ObjectMeta, type Pod, type PodTemplateSpec, type ReplicaSet } from '@orch/api';
import { isPodAvailable, isPodReady } from '../controller/podUtil';

export type ReplicaSetStatus = NonNullable<ReplicaSet['status']>;

/**
 * What the controller keeps pods for: a ReplicaSet, or a ReplicationController, whose spec and
 * status have the same fields but for the form of the selector.
 */
export interface ReplicaSetLike {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { replicas?: number; minReadySeconds?: number; template?: PodTemplateSpec };
  status?: Omit<ReplicaSetStatus, 'replicas'> & { replicas?: number };
}

/**
 * The status a ReplicaSet should have for its pods (Kubernetes' calculateStatus): counts, the
 * observed generation and the ReplicaFailure condition while creating or deleting pods fails.
 */
export function calculateReplicaSetStatus(
  rs: ReplicaSetLike,
  pods: readonly Pod[],
  manageError: { reason: 'FailedCreate' | 'FailedDelete'; message: string } | undefined,
  now: number,
): ReplicaSetStatus {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const minReady = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    const labels = pod.metadata?.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
  }
  let conditions = (rs.status?.conditions ?? []).slice();
  const failure = conditions.find((c) => c.type === 'ReplicaFailure');
  if (manageError && !failure) {
    conditions.push({
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: formatTime(now),
      reason: manageError.reason,
      message: manageError.message,
    });
  } else if (!manageError && failure) {
    conditions = conditions.filter((c) => c.type !== 'ReplicaFailure');
  }
  const status: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata?.generation ?? 0,
  };
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

/** Whether two statuses are the same for the controller's purposes. */
export function sameReplicaSetStatus(a: ReplicaSetLike['status'], b: ReplicaSetStatus): boolean {
  return (
    (a?.replicas ?? 0) === b.replicas &&
    (a?.fullyLabeledReplicas ?? 0) === (b.fullyLabeledReplicas ?? 0) &&
    (a?.readyReplicas ?? 0) === (b.readyReplicas ?? 0) &&
    (a?.availableReplicas ?? 0) === (b.availableReplicas ?? 0) &&
    (a?.observedGeneration ?? 0) === (b.observedGeneration ?? 0) &&
    JSON.stringify(a?.conditions ?? []) === JSON.stringify(b.conditions ?? [])
  );
}
