import type { ObjectReference, Pod } from '@orch/api';
import type { EventRecorder } from '@orch/client';

/**
 * Records an event about one container of a pod, as the kubelet does: the pod is the object, the
 * container its field path (`spec.containers{name}` or `spec.initContainers{name}`).
 */
export function containerEvent(
  recorder: EventRecorder | undefined,
  pod: Pod,
  container: string,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): void {
  if (!recorder) return;
  const isInit = (pod.spec?.initContainers ?? []).some((c) => c.name === container);
  const ref: ObjectReference = {
    kind: 'Pod',
    apiVersion: 'v1',
    namespace: pod.metadata?.namespace,
    name: pod.metadata?.name,
    uid: pod.metadata?.uid,
    resourceVersion: pod.metadata?.resourceVersion,
    fieldPath: `spec.${isInit ? 'initContainers' : 'containers'}{${container}}`,
  };
  recorder.event(ref, type, reason, message);
}
