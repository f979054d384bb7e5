import type { Node, Pod } from '@orch/api';
import { addResource, emptyResource, nodeAllocatable, podRequests, type Resource } from './resource';

const EMPTY: Resource = emptyResource();

/** The key of a pod in the scheduler: its uid, or namespace/name when it has none. */
export function podKey(pod: Pod): string {
  return pod.metadata?.uid || `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** A node with the pods placed on it and the resources they request. */
export class NodeInfo {
  readonly pods = new Map<string, Pod>();
  /** Sum of the effective requests of the pods on the node. */
  readonly requested: Resource = emptyResource();
  /** Requests with Kubernetes' defaults for containers that request nothing (for scoring). */
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  /** Bumped on every change. */
  generation = 0;

  private allocatableOfNode: Resource = EMPTY;
  private nodeValue: Node | undefined;

  constructor(node: Node | undefined) {
    this.node = node;
  }

  get node(): Node | undefined {
    return this.nodeValue;
  }

  set node(node: Node | undefined) {
    this.nodeValue = node;
    this.allocatableOfNode = node ? nodeAllocatable(node) : EMPTY;
  }

  get name(): string {
    return this.node?.metadata?.name ?? '';
  }

  get allocatable(): Resource {
    return this.allocatableOfNode;
  }

  get podCount(): number {
    return this.pods.size;
  }

  setNode(node: Node): void {
    this.node = node;
    this.generation++;
  }

  addPod(pod: Pod): void {
    const key = podKey(pod);
    if (this.pods.has(key)) this.removePod(pod);
    this.pods.set(key, pod);
    this.account(pod, 1);
  }

  /** Removes a pod; false when it was not on this node. */
  removePod(pod: Pod): boolean {
    const key = podKey(pod);
    const existing = this.pods.get(key);
    if (existing === undefined) return false;
    this.pods.delete(key);
    this.account(existing, -1);
    return true;
  }

  private account(pod: Pod, sign: 1 | -1): void {
    const r = podRequests(pod);
    addResource(this.requested, r.resource, sign);
    this.nonZeroMilliCPU += sign * r.nonZeroMilliCPU;
    this.nonZeroMemory += sign * r.nonZeroMemory;
    this.generation++;
  }
}
