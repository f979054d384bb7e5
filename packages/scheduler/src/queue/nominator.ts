import type { Pod } from '@orch/api';
import { podKey } from '../framework/nodeInfo';

const NONE: readonly Pod[] = Object.freeze([]);

/** Pods nominated to run on a node (by preemption), so that others do not take their room. */
export class PodNominator {
  private readonly byNode = new Map<string, Map<string, Pod>>();
  private readonly nodeOfPod = new Map<string, string>();

  /** Records the pod's nomination: `nodeName`, or else its status.nominatedNodeName. */
  add(pod: Pod, nodeName?: string): void {
    this.delete(pod);
    const node = nodeName || pod.status?.nominatedNodeName;
    if (!node) return;
    const key = podKey(pod);
    this.nodeOfPod.set(key, node);
    let pods = this.byNode.get(node);
    if (!pods) this.byNode.set(node, (pods = new Map()));
    pods.set(key, pod);
  }

  delete(pod: Pod): void {
    const key = podKey(pod);
    const node = this.nodeOfPod.get(key);
    if (node === undefined) return;
    this.nodeOfPod.delete(key);
    const pods = this.byNode.get(node);
    pods?.delete(key);
    if (pods?.size === 0) this.byNode.delete(node);
  }

  /** Keeps a nomination made by the scheduler when the update does not carry one yet. */
  update(oldPod: Pod, newPod: Pod): void {
    const kept =
      !newPod.status?.nominatedNodeName && oldPod.status?.nominatedNodeName === undefined
        ? this.nodeOfPod.get(podKey(oldPod))
        : undefined;
    this.delete(oldPod);
    this.add(newPod, kept);
  }

  /** The pods nominated to the node (a shared empty list when there are none: filters ask per node). */
  nominatedPodsForNode(nodeName: string): readonly Pod[] {
    const pods = this.byNode.get(nodeName);
    return pods === undefined ? NONE : [...pods.values()];
  }
}
