import type { Pod, StatefulSet } from '@orch/api';
import {
  isCreated,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  podRevision,
} from './statefulPods';

export type StatefulSetStatus = NonNullable<StatefulSet['status']>;

/** Counts of the set's pods (Kubernetes' computeReplicaStatus over the replicas and the condemned). */
export function replicaCounts(
  pods: readonly (Pod | undefined)[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: number,
): Pick<
  StatefulSetStatus,
  'replicas' | 'readyReplicas' | 'availableReplicas' | 'currentReplicas' | 'updatedReplicas'
> {
  const counts = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
  };
  for (const pod of pods) {
    if (!pod) continue;
    if (isCreated(pod)) counts.replicas++;
    if (isRunningAndReady(pod)) {
      counts.readyReplicas++;
      if (isRunningAndAvailable(pod, minReadySeconds, now)) counts.availableReplicas++;
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      const revision = podRevision(pod);
      if (revision === currentRevision) counts.currentReplicas++;
      if (revision === updateRevision) counts.updatedReplicas++;
    }
  }
  return counts;
}

/**
 * A finished rolling update: every pod updated and ready makes the update revision current
 * (Kubernetes' completeRollingUpdate).
 */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
  if (
    set.spec?.updateStrategy?.type === 'RollingUpdate' &&
    status.updatedReplicas === status.replicas &&
    status.readyReplicas === status.replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

const compared = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'availableReplicas',
  'currentReplicas',
  'updatedReplicas',
  'currentRevision',
  'updateRevision',
  'collisionCount',
] as const;

/** Whether the set's written status differs from the computed one (Kubernetes' inconsistentStatus). */
export function inconsistentStatus(set: StatefulSet, status: StatefulSetStatus): boolean {
  const written = set.status ?? ({} as StatefulSetStatus);
  const norm = (v: unknown): unknown => (v === undefined ? 0 : v === '' ? 0 : v);
  return compared.some((k) => norm(written[k]) !== norm(status[k]));
}
