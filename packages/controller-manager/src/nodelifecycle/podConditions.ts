import { formatTime, type Pod } from '@orch/api';

export type PodCondition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

/** The DisruptionTarget condition of a pod the taint manager deletes. */
export const TAINT_MANAGER_DISRUPTION_CONDITION: Readonly<PodCondition> = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByTaintManager',
  message: 'Taint manager: deleting due to NoExecute taint',
};

/**
 * `condition` set among the pod's conditions as Kubernetes' UpdatePodCondition does: its
 * lastTransitionTime is `now` unless the status stays the same; undefined when nothing changes.
 */
export function withPodCondition(
  pod: Pod,
  condition: Readonly<PodCondition>,
  now: number,
): PodCondition | undefined {
  const current = pod.status?.conditions?.find((c) => c.type === condition.type);
  const lastTransitionTime =
    current && current.status === condition.status && current.lastTransitionTime
      ? current.lastTransitionTime
      : formatTime(now);
  const next: PodCondition = { ...condition, lastTransitionTime };
  if (
    current &&
    current.status === next.status &&
    (current.reason ?? '') === (next.reason ?? '') &&
    (current.message ?? '') === (next.message ?? '') &&
    (current.lastProbeTime ?? '') === (next.lastProbeTime ?? '') &&
    (current.lastTransitionTime ?? '') === (next.lastTransitionTime ?? '')
  )
    return undefined;
  return next;
}

/**
 * The pod's Ready condition turned False (Kubernetes' MarkPodsNotReady), its other fields kept;
 * undefined when the pod has no Ready condition or it is already False.
 */
export function podNotReadyCondition(pod: Pod, now: number): PodCondition | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return undefined;
  return withPodCondition(pod, { ...ready, status: 'False' }, now);
}
