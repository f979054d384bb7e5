import { isDeepStrictEqual } from 'node:util';
import { selectorFromSet, type LabelsSelector, type Pod, type Service } from '@orch/api';
import { metaNamespaceKeyFunc, type Lister, type SharedIndexInformer } from '@orch/client';
import { deletedObject } from '@orch/component-base';

/**
 * The pods a service selects; undefined for a service without a selector (its endpoints are
 * someone else's).
 */
export function podSelector(service: Service): LabelsSelector | undefined {
  const set = service.spec?.selector;
  return set && Object.keys(set).length ? selectorFromSet(set) : undefined;
}

/**
 * Wires a controller keyed by service to pod changes: each pod that is added, changed or deleted
 * queues (through `enqueue`, with the service's key) the services of its namespace whose selector
 * picks it, those that picked it under its old labels too.
 */
export function enqueueServicesOfPods(
  podInformer: SharedIndexInformer<Pod>,
  serviceLister: Lister<Service>,
  enqueue: (serviceKey: string) => void,
): void {
  const servicesOf = (pod: Pod): void => {
    for (const svc of serviceLister.namespace(pod.metadata?.namespace ?? '').list()) {
      if (podSelector(svc)?.matches(pod.metadata?.labels)) enqueue(metaNamespaceKeyFunc(svc));
    }
  };
  podInformer.addEventHandler({
    onAdd: servicesOf,
    onUpdate: (old, pod) => {
      if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
      servicesOf(pod);
      if (!isDeepStrictEqual(old.metadata?.labels ?? {}, pod.metadata?.labels ?? {})) servicesOf(old);
    },
    onDelete: (obj) => servicesOf(deletedObject(obj)),
  });
}
