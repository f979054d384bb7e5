import type { Node, Pod } from '@orch/api';
import { HostPortInfo } from './hostPortInfo';
import { addResource, emptyResource, nodeAllocatable, podRequests, type Resource } from './resource';

const EMPTY: Resource = emptyResource();

/** The key of a pod in the scheduler: its uid, or namespace/name when it has none. */
export function podKey(pod: Pod): string {
  return pod.metadata?.uid || `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** Whether the pod declares pod affinity or pod anti-affinity (required or preferred). */
export function podHasAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  return !!a && (!!a.podAffinity || !!a.podAntiAffinity);
}

/** Whether the pod has required pod anti-affinity terms. */
export function podHasRequiredAntiAffinity(pod: Pod): boolean {
  const terms = pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return !!terms && terms.length > 0;
}

/** A node with the pods placed on it and the resources they request. */
export class NodeInfo {
  readonly pods = new Map<string, Pod>();
  /** The pods with pod affinity or anti-affinity, so that affinity plugins skip the others. */
  readonly podsWithAffinity = new Map<string, Pod>();
  /** The pods with required pod anti-affinity terms. */
  readonly podsWithRequiredAntiAffinity = new Map<string, Pod>();
  /** The host ports taken by the pods on the node. */
  readonly usedPorts = new HostPortInfo();
  /** Sum of the effective requests of the pods on the node. */
  readonly requested: Resource = emptyResource();
  /** Requests with Kubernetes' defaults for containers that request nothing (for scoring). */
  nonZeroMilliCPU = 0;
  nonZeroMemory = 0;
  /** Bumped on every change. */
  generation = 0;

  private allocatableOfNode: Resource = EMPTY;
  private nodeValue: Node | undefined;

  /**
   * @param podOverhead whether the pods' spec.overhead counts in their requests (the PodOverhead
   *   feature gate)
   */
  constructor(
    node: Node | undefined,
    readonly podOverhead = false,
  ) {
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

  /** An independent copy with the same node and pods (for preemption and nominated-pod dry runs). */
  clone(): NodeInfo {
    const copy = new NodeInfo(this.node, this.podOverhead);
    for (const pod of this.pods.values()) copy.addPod(pod);
    copy.generation = this.generation;
    return copy;
  }

  setNode(node: Node): void {
    this.node = node;
    this.generation++;
  }

  addPod(pod: Pod): void {
    const key = podKey(pod);
    if (this.pods.has(key)) this.removePod(pod);
    this.pods.set(key, pod);
    if (podHasAffinity(pod)) {
      this.podsWithAffinity.set(key, pod);
      if (podHasRequiredAntiAffinity(pod)) this.podsWithRequiredAntiAffinity.set(key, pod);
    }
    this.account(pod, 1);
  }

  /** Removes a pod; false when it was not on this node. */
  removePod(pod: Pod): boolean {
    const key = podKey(pod);
    const existing = this.pods.get(key);
    if (existing === undefined) return false;
    this.pods.delete(key);
    if (this.podsWithAffinity.delete(key)) this.podsWithRequiredAntiAffinity.delete(key);
    this.account(existing, -1);
    return true;
  }

  private account(pod: Pod, sign: 1 | -1): void {
    const r = podRequests(pod, this.podOverhead);
    addResource(this.requested, r.resource, sign);
    this.nonZeroMilliCPU += sign * r.nonZeroMilliCPU;
    this.nonZeroMemory += sign * r.nonZeroMemory;
    this.usedPorts.addPod(pod, sign);
    this.generation++;
  }
}
