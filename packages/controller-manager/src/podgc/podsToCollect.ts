import { parseTime, type Node, type Pod } from '@orch/api';

/** The taint that marks a node out of service (node.kubernetes.io/out-of-service). */
export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';

/** Whether the pod's phase is neither Pending, Running nor Unknown (podgc's isPodTerminated). */
export function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** Whether the kubelet evicted the pod: phase Failed with reason Evicted. */
export function isPodEvicted(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status?.reason === 'Evicted';
}

const createdAt = (pod: Pod): number => {
  const t = pod.metadata?.creationTimestamp;
  if (!t) return 0;
  try {
    return parseTime(t);
  } catch {
    return 0;
  }
};

/** Evicted pods first, then the oldest by creationTimestamp, then by name. */
export function compareByEvictionAndCreation(a: Pod, b: Pod): number {
  const ea = isPodEvicted(a);
  const eb = isPodEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ta = createdAt(a);
  const tb = createdAt(b);
  if (ta !== tb) return ta - tb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * The terminated pods beyond `threshold`, in the order they go: evicted first, then oldest first.
 * None when the threshold is 0 or below (that part of the collector is off).
 */
export function terminatedPodsToCollect(pods: readonly Pod[], threshold: number): Pod[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isPodTerminated);
  const excess = terminated.length - threshold;
  if (excess <= 0) return [];
  return terminated.sort(compareByEvictionAndCreation).slice(0, excess);
}

/** Whether the node's Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Terminating pods on nodes that are not ready and carry the out-of-service taint, evicted first,
 * then oldest first. `nodeNamed` looks a node up in the cache.
 */
export function outOfServiceTerminatingPods(
  pods: readonly Pod[],
  nodeNamed: (name: string) => Node | undefined,
): Pod[] {
  return pods
    .filter((pod) => {
      if (!pod.metadata?.deletionTimestamp || !pod.spec?.nodeName) return false;
      const node = nodeNamed(pod.spec.nodeName);
      return (
        node !== undefined &&
        !isNodeReady(node) &&
        (node.spec?.taints ?? []).some((t) => t.key === OUT_OF_SERVICE_TAINT)
      );
    })
    .sort(compareByEvictionAndCreation);
}

/** The names of the nodes pods are bound to that are not among `existing`. */
export function missingNodeNames(pods: readonly Pod[], existing: ReadonlySet<string>): string[] {
  const missing = new Set<string>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (node && !existing.has(node)) missing.add(node);
  }
  return [...missing];
}

/** The pods bound to one of the `deleted` nodes. */
export function orphanedPods(pods: readonly Pod[], deleted: ReadonlySet<string>): Pod[] {
  return pods.filter((pod) => !!pod.spec?.nodeName && deleted.has(pod.spec.nodeName));
}

/** Pods being deleted that were never bound to a node. */
export function unscheduledTerminatingPods(pods: readonly Pod[]): Pod[] {
  return pods.filter((pod) => !!pod.metadata?.deletionTimestamp && !pod.spec?.nodeName);
}
