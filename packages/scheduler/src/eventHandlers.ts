import {
  isPodTerminal,
  type CSINode,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type Service,
  type StorageClass,
} from '@orch/api';
import { DeletedFinalStateUnknown, type HandlerRegistration, type SharedIndexInformer } from '@orch/client';
import type { ClusterEvent } from './queue/schedulingQueue';
import type { Scheduler } from './scheduler';

function unwrap<T>(obj: T | DeletedFinalStateUnknown<T>): T {
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
}

function isAssigned(pod: Pod): boolean {
  return !!pod.spec?.nodeName;
}

/** Bound pods that still hold resources belong in the cache. */
function inCache(pod: Pod): boolean {
  return isAssigned(pod) && !isPodTerminal(pod);
}

function json(v: unknown): string {
  return JSON.stringify(v ?? null);
}

/** Which change of a node may let unschedulable pods fit now (Kubernetes' nodeSchedulingPropertiesChange). */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent | undefined {
  if (!!oldNode.spec?.unschedulable && !newNode.spec?.unschedulable) return 'NodeSpecUnschedulableChange';
  if (json(oldNode.status?.allocatable) !== json(newNode.status?.allocatable)) return 'NodeAllocatableChange';
  if (json(oldNode.metadata?.labels) !== json(newNode.metadata?.labels)) return 'NodeLabelChange';
  if (json(oldNode.spec?.taints) !== json(newNode.spec?.taints)) return 'NodeTaintChange';
  const conditions = (n: Node): string =>
    json((n.status?.conditions ?? []).map((c) => [c.type, c.status]).sort());
  if (conditions(oldNode) !== conditions(newNode)) return 'NodeConditionChange';
  return undefined;
}

/**
 * Feeds the scheduler from the pod and node informers: bound pods go to the cache, pending pods of
 * its profiles to the queue, and changes that may free room move unschedulable pods back.
 */
export function addAllEventHandlers(
  sched: Scheduler,
  podInformer: SharedIndexInformer<Pod>,
  nodeInformer: SharedIndexInformer<Node>,
): HandlerRegistration[] {
  const { cache, queue } = sched;
  // a pod with scheduling gates waits outside the queue until an update removes the last of them
  const queued = (pod: Pod): boolean =>
    !isAssigned(pod) && !pod.spec?.schedulingGates?.length && sched.responsibleFor(pod);

  const pods = podInformer.addEventHandler({
    onAdd: (pod) => {
      if (inCache(pod)) {
        cache.addPod(pod);
        queue.assignedPodAdded(pod);
      } else if (queued(pod)) queue.add(pod);
    },
    onUpdate: (oldPod, newPod) => {
      if (oldPod === newPod) return;
      const wasCached = inCache(oldPod);
      const isCached = inCache(newPod);
      if (wasCached && isCached) {
        cache.updatePod(oldPod, newPod);
        queue.assignedPodUpdated(newPod);
      } else if (isCached) {
        cache.addPod(newPod);
        queue.assignedPodAdded(newPod);
      } else if (wasCached) {
        cache.removePod(oldPod);
        queue.moveAllToActiveOrBackoffQueue('AssignedPodDelete');
      }
      const wasQueued = queued(oldPod);
      const isQueued = queued(newPod);
      // An assumed pod's own updates (e.g. its status) do not need another attempt.
      if (wasQueued && isQueued) {
        if (!cache.isAssumedPod(newPod)) queue.update(oldPod, newPod);
      } else if (isQueued) queue.add(newPod);
      else if (wasQueued) queue.delete(oldPod);
    },
    onDelete: (obj) => {
      const pod = unwrap(obj);
      if (inCache(pod) || cache.getPod(pod)) {
        cache.removePod(pod);
        queue.moveAllToActiveOrBackoffQueue('AssignedPodDelete');
      }
      if (queued(pod)) {
        queue.delete(pod);
        for (const fwk of sched.profiles.values())
          fwk.getWaitingPod(pod.metadata?.uid ?? '')?.reject('pod deleted');
      }
    },
  });

  const nodes = nodeInformer.addEventHandler({
    onAdd: (node) => {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue('NodeAdd');
    },
    onUpdate: (oldNode, newNode) => {
      cache.updateNode(newNode);
      if (oldNode === newNode) return;
      const event = nodeSchedulingPropertiesChange(newNode, oldNode);
      if (event) queue.moveAllToActiveOrBackoffQueue(event);
    },
    onDelete: (obj) => cache.removeNode(unwrap(obj)),
  });
  return [pods, nodes];
}

/**
 * Moves unschedulable pods back when storage changes may let them fit (Kubernetes' onPvAdd,
 * onPvUpdate, onPvcAdd, onPvcUpdate, onStorageClassAdd, onCSINodeAdd and onCSINodeUpdate): a new or
 * changed volume or claim, a new WaitForFirstConsumer class that a pod's unbound claim names, or a
 * new or changed CSINode (its drivers' attach limits).
 */
export function addVolumeEventHandlers(
  sched: Scheduler,
  volumeInformer: SharedIndexInformer<PersistentVolume>,
  claimInformer: SharedIndexInformer<PersistentVolumeClaim>,
  classInformer: SharedIndexInformer<StorageClass>,
  csiNodeInformer?: SharedIndexInformer<CSINode>,
): HandlerRegistration[] {
  const move = (event: ClusterEvent): void => sched.queue.moveAllToActiveOrBackoffQueue(event);
  return [
    volumeInformer.addEventHandler({
      onAdd: () => move('PvAdd'),
      onUpdate: () => move('PvUpdate'),
    }),
    claimInformer.addEventHandler({
      onAdd: () => move('PvcAdd'),
      onUpdate: () => move('PvcUpdate'),
    }),
    classInformer.addEventHandler({
      onAdd: (sc) => {
        if (sc.volumeBindingMode === 'WaitForFirstConsumer') move('StorageClassAdd');
      },
    }),
    ...(csiNodeInformer
      ? [
          csiNodeInformer.addEventHandler({
            onAdd: () => move('CSINodeAdd'),
            onUpdate: () => move('CSINodeUpdate'),
          }),
        ]
      : []),
  ];
}

/**
 * Moves unschedulable pods back when a Service is added, changed or deleted (Kubernetes' onServiceAdd,
 * onServiceUpdate and onServiceDelete), for the plugins that place the pods a Service selects by it
 * (SelectorSpread).
 */
export function addServiceEventHandlers(
  sched: Scheduler,
  serviceInformer: SharedIndexInformer<Service>,
): HandlerRegistration {
  const move = (event: ClusterEvent): void => sched.queue.moveAllToActiveOrBackoffQueue(event);
  return serviceInformer.addEventHandler({
    onAdd: () => move('ServiceAdd'),
    onUpdate: () => move('ServiceUpdate'),
    onDelete: () => move('ServiceDelete'),
  });
}
