import type { DaemonSet, Node, Pod } from '@orch/api';
import { isPodAvailable, isPodReady } from '../controller/podUtil';
import { compareDaemonPods, isPodUpdated, nodeShouldRunDaemonPod, templateGeneration } from './daemonPods';

/** The counts of a DaemonSet's status. */
export type DaemonSetCounts = Required<
  Pick<
    NonNullable<DaemonSet['status']>,
    | 'desiredNumberScheduled'
    | 'currentNumberScheduled'
    | 'numberMisscheduled'
    | 'numberReady'
    | 'updatedNumberScheduled'
    | 'numberAvailable'
    | 'numberUnavailable'
  >
>;

/**
 * Kubernetes' updateDaemonSetStatus: over the nodes, those that should run the pod, those of them
 * with one, and the oldest such pod's readiness, availability and revision; pods on nodes where the
 * pod should not be placed are misscheduled.
 */
export function daemonSetCounts(
  ds: DaemonSet,
  nodes: readonly Node[],
  nodeToPods: ReadonlyMap<string, Pod[]>,
  hash: string,
  now: number,
): DaemonSetCounts {
  const counts: DaemonSetCounts = {
    desiredNumberScheduled: 0,
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
  };
  const generation = templateGeneration(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  for (const node of nodes) {
    const pods = nodeToPods.get(node.metadata?.name ?? '') ?? [];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (pods.length) counts.numberMisscheduled++;
      continue;
    }
    counts.desiredNumberScheduled++;
    if (!pods.length) continue;
    counts.currentNumberScheduled++;
    const pod = [...pods].sort(compareDaemonPods)[0]!;
    if (isPodReady(pod)) {
      counts.numberReady++;
      if (isPodAvailable(pod, minReady, now)) counts.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) counts.updatedNumberScheduled++;
  }
  counts.numberUnavailable = counts.desiredNumberScheduled - counts.numberAvailable;
  return counts;
}

/** Whether the status already holds the counts (and, when asked, the current generation). */
export function statusHolds(ds: DaemonSet, counts: DaemonSetCounts, observeGeneration: boolean): boolean {
  const status = ds.status;
  const same = (Object.keys(counts) as (keyof DaemonSetCounts)[]).every(
    (k) => (status?.[k] ?? 0) === counts[k],
  );
  return same && (!observeGeneration || (status?.observedGeneration ?? 0) >= (ds.metadata?.generation ?? 0));
}
