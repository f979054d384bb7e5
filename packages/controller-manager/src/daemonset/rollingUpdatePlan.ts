import { resolveDaemonSetFenceposts, type DaemonSet, type Node, type Pod } from '@orch/api';
import { isPodAvailable } from '../controller/podUtil';
import { findUpdatedPodsOnNode, nodeShouldRunDaemonPod, templateGeneration } from './daemonPods';

/** One step of a rolling update: old pods (by name) that go, nodes that get an updated pod. */
export interface RollingUpdateStep {
  podsToDelete: string[];
  nodesNeedingPods: string[];
}

/**
 * The surge and unavailability a DaemonSet's rolling update allows, and the number of nodes that
 * should run its pod (Kubernetes' updatedDesiredNodeCounts); every such node without pods is added
 * to `nodeToPods` with none.
 */
export function updateBounds(
  ds: DaemonSet,
  nodes: readonly Node[],
  nodeToPods: Map<string, Pod[]>,
): { maxSurge: number; maxUnavailable: number; desired: number } {
  let desired = 0;
  for (const node of nodes) {
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desired++;
    const name = node.metadata?.name ?? '';
    if (!nodeToPods.has(name)) nodeToPods.set(name, []);
  }
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  const rolling = ds.spec?.updateStrategy?.type === 'RollingUpdate';
  const bounds = resolveDaemonSetFenceposts(
    rolling ? (ru?.maxSurge ?? 0) : 0,
    rolling ? (ru?.maxUnavailable ?? 0) : 0,
    desired,
  );
  return { ...bounds, desired };
}

/**
 * Kubernetes' rollingUpdate for a DaemonSet.
 *
 * Without surge, old pods go while no more than maxUnavailable nodes are without an available
 * pod (an old pod that is not available goes at once); the manage step then puts updated pods there.
 * With surge, an updated pod is made beside an old one on at most maxSurge nodes at a time (at once
 * where the old pod is not available), and the old pod goes once the updated one is available; an
 * available old pod on a node where the pod should no longer be placed goes only while more pods
 * are available than nodes should run one.
 */
export function rollingUpdatePlan(
  ds: DaemonSet,
  nodes: readonly Node[],
  nodeToPods: Map<string, Pod[]>,
  hash: string,
  now: number,
): RollingUpdateStep {
  const { maxSurge, maxUnavailable, desired } = updateBounds(ds, nodes, nodeToPods);
  const generation = templateGeneration(ds);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const available = (pod: Pod): boolean => isPodAvailable(pod, minReady, now);
  const names = (pods: Pod[]): string[] => pods.map((p) => p.metadata?.name ?? '');

  if (maxSurge === 0) {
    let unavailable = 0;
    const allowed: Pod[] = [];
    const candidates: Pod[] = [];
    for (const pods of nodeToPods.values()) {
      const found = findUpdatedPodsOnNode(pods, hash, generation);
      if (!found) {
        unavailable++;
        continue;
      }
      const { newPod, oldPod } = found;
      if ((!oldPod && !newPod) || (oldPod && newPod)) unavailable++;
      else if (newPod) {
        if (!available(newPod)) unavailable++;
      } else if (!available(oldPod!)) allowed.push(oldPod!);
      else if (unavailable < maxUnavailable) candidates.push(oldPod!);
    }
    const remaining = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
    return { podsToDelete: names([...allowed, ...candidates.slice(0, remaining)]), nodesNeedingPods: [] };
  }

  const nodesByName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
  const shouldRun = (nodeName: string): boolean => {
    const node = nodesByName.get(nodeName);
    return node !== undefined && nodeShouldRunDaemonPod(node, ds).shouldRun;
  };
  const oldPodsToDelete: Pod[] = [];
  const shouldNotRun: Pod[] = [];
  const candidateNodes: string[] = [];
  const allowedNodes: string[] = [];
  let surged = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of nodeToPods) {
    const found = findUpdatedPodsOnNode(pods, hash, generation);
    if (!found) {
      surged++;
      continue;
    }
    const { newPod, oldPod } = found;
    if (oldPod ? available(oldPod) : newPod && available(newPod)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) {
        if (!shouldRun(nodeName)) oldPodsToDelete.push(oldPod);
        else allowedNodes.push(nodeName);
      } else if (!shouldRun(nodeName)) {
        shouldNotRun.push(oldPod);
      } else if (surged < maxSurge) {
        candidateNodes.push(nodeName);
      }
    } else if (!available(newPod)) {
      surged++;
    } else {
      oldPodsToDelete.push(oldPod);
    }
  }
  const deletable = Math.min(Math.max(numAvailable - desired, 0), shouldNotRun.length);
  oldPodsToDelete.push(...shouldNotRun.slice(0, deletable));
  const remaining = Math.min(Math.max(maxSurge - surged, 0), candidateNodes.length);
  return {
    podsToDelete: names(oldPodsToDelete),
    nodesNeedingPods: [...allowedNodes, ...candidateNodes.slice(0, remaining)],
  };
}
