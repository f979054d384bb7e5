import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet, type Node, type Pod } from '@orch/api';
import { isPodReady } from '../controller/podUtil';
import { compareDaemonPods, nodeShouldRunDaemonPod } from './daemonPods';

/** What the manage step does: nodes that get a daemon pod, and pods (by name) that go. */
export interface ManagePlan {
  nodesNeedingPods: string[];
  podsToDelete: string[];
}

/** Whether the DaemonSet's rolling update may run two pods on a node (maxSurge not 0). */
export function allowsSurge(ds: DaemonSet, surge: number): boolean {
  return ds.spec?.updateStrategy?.type === 'RollingUpdate' && surge > 0;
}

/**
 * Kubernetes' manage step over every node (podsShouldBeOnNode): a node that should run the pod and
 * has none gets one; on a node where the pod may go on running, finished pods go (a failed one when
 * `deleteFailed` allows it, which backs off) and extra ones go, keeping the oldest — or, while
 * surging, the oldest updated pod and the oldest old one while the updated one is not ready and the
 * old one is; on a node where it may not run, every pod goes. Pods waiting for a node that no longer
 * exists go too.
 */
export function managePlan(
  ds: DaemonSet,
  nodes: readonly Node[],
  nodeToPods: ReadonlyMap<string, Pod[]>,
  hash: string,
  surge: boolean,
  deleteFailed: (pod: Pod, nodeName: string) => boolean,
): ManagePlan {
  const plan: ManagePlan = { nodesNeedingPods: [], podsToDelete: [] };
  const live = new Set<string>();
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    live.add(name);
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const pods = nodeToPods.get(name);
    if (shouldRun && !pods) {
      plan.nodesNeedingPods.push(name);
    } else if (shouldContinueRunning) {
      const running: Pod[] = [];
      for (const pod of pods ?? []) {
        if (pod.metadata?.deletionTimestamp) continue;
        const phase = pod.status?.phase;
        if (phase === 'Failed') {
          if (deleteFailed(pod, name)) plan.podsToDelete.push(pod.metadata?.name ?? '');
        } else if (phase === 'Succeeded') {
          plan.podsToDelete.push(pod.metadata?.name ?? '');
        } else {
          running.push(pod);
        }
      }
      plan.podsToDelete.push(
        ...extraPods(running, hash, surge, shouldRun, () => plan.nodesNeedingPods.push(name)),
      );
    } else if (pods) {
      for (const pod of pods)
        if (!pod.metadata?.deletionTimestamp) plan.podsToDelete.push(pod.metadata?.name ?? '');
    }
  }
  // the scheduler never binds a pod to a node that is gone, and the pod GC leaves unbound pods alone
  for (const [name, pods] of nodeToPods) {
    if (live.has(name)) continue;
    for (const pod of pods) if (!pod.spec?.nodeName) plan.podsToDelete.push(pod.metadata?.name ?? '');
  }
  return plan;
}

/** The running pods on a node beyond those it keeps; `needsPod` when a surging node has none left. */
function extraPods(
  running: Pod[],
  hash: string,
  surge: boolean,
  shouldRun: boolean,
  needsPod: () => void,
): string[] {
  const names = (pods: Pod[]): string[] => pods.map((p) => p.metadata?.name ?? '');
  if (running.length <= 1) {
    if (surge && running.length === 0 && shouldRun) needsPod();
    return [];
  }
  const sorted = [...running].sort(compareDaemonPods);
  if (!surge) return names(sorted.slice(1));
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  const extra: Pod[] = [];
  for (const pod of sorted) {
    if (pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash) {
      if (!oldestNew) {
        oldestNew = pod;
        continue;
      }
    } else if (!oldestOld) {
      oldestOld = pod;
      continue;
    }
    extra.push(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodReady(oldestNew))) extra.push(oldestOld);
  return names(extra);
}
