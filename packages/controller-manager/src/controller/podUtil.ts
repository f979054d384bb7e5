import {
  isPodTerminal,
  newControllerRef,
  parseTime,
  type ObjectMeta,
  type Pod,
  type PodTemplateSpec,
} from '@orch/api';

/**
 * The pod a controller creates from its template (Kubernetes' GetPodFromTemplate): the template's
 * labels, annotations and finalizers, a name generated from the owner's, and a controller reference.
 */
export function podFromTemplate(
  owner: { metadata?: ObjectMeta },
  template: PodTemplateSpec | undefined,
  gvk: { group: string; version: string; kind: string },
): Pod {
  const meta = template?.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${owner.metadata?.name}-`,
      namespace: owner.metadata?.namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(owner, gvk)],
    },
    spec: structuredClone(template?.spec),
  } as Pod;
}

/** The pod's Ready condition, if any. */
export function podReadyCondition(pod: Pod): { status?: string; lastTransitionTime?: string } | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/** Whether the pod's Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** Ready for at least minReadySeconds (Kubernetes' IsPodAvailable). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = podReadyCondition(pod);
  if (ready?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  if (!ready.lastTransitionTime) return false;
  return parseTime(ready.lastTransitionTime) + minReadySeconds * 1000 < now;
}

/** Not finished and not being deleted (Kubernetes' IsPodActive). */
export function isPodActive(pod: Pod): boolean {
  return !isPodTerminal(pod) && !pod.metadata?.deletionTimestamp;
}

/** The pod's restarts across its containers. */
export function podRestarts(pod: Pod): number {
  let total = 0;
  for (const s of pod.status?.containerStatuses ?? []) total += s.restartCount ?? 0;
  return total;
}
