import type { Node, Pod } from '@orch/api';
import { NodeInfo, podHasAffinity, podKey } from '../framework/nodeInfo';

/** How long an assumed pod whose binding finished waits for the informer to confirm it. */
export const DEFAULT_ASSUMED_POD_TTL_MS = 30_000;
const CLEANUP_INTERVAL_MS = 1_000;

interface PodState {
  pod: Pod;
  /** Set when the binding finished; the assumption expires after it. */
  deadline: number | undefined;
  bindingFinished: boolean;
}

export interface SchedulerCacheOptions {
  assumedPodTtlMs?: number;
  now?: () => number;
  /** Told about each assumed pod that expired without confirmation. */
  onExpire?: (pod: Pod) => void;
  /** Pods' spec.overhead counts in the requests on their nodes (the PodOverhead feature gate). */
  podOverhead?: boolean;
}

/**
 * The scheduler's view of nodes and the pods on them. A pod is assumed on its node as soon as the
 * scheduler picks it, confirmed when the informer sees it bound, forgotten when binding fails, and
 * expired when the binding finished but no confirmation arrived within the TTL.
 */
export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  private readonly assumedPods = new Set<string>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private nodeList: NodeInfo[] | undefined;
  /** The nodes running pods with pod affinity, and with required anti-affinity; rebuilt after changes. */
  private affinityLists: { withAffinity: NodeInfo[]; withRequiredAntiAffinity: NodeInfo[] } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: SchedulerCacheOptions = {}) {
    this.ttlMs = opts.assumedPodTtlMs ?? DEFAULT_ASSUMED_POD_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Starts expiring assumed pods every second. */
  run(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.cleanupAssumedPods(), CLEANUP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  // Nodes

  addNode(node: Node): void {
    this.nodeInfoFor(node.metadata?.name ?? '').setNode(node);
  }

  updateNode(node: Node): void {
    this.addNode(node);
  }

  /** Removes a node; its pods stay accounted until they are deleted (the node may come back). */
  removeNode(node: Node): void {
    const name = node.metadata?.name ?? '';
    const info = this.nodes.get(name);
    if (!info) return;
    if (info.pods.size === 0) this.nodes.delete(name);
    else info.node = undefined;
    this.invalidateNodeLists();
  }

  private nodeInfoFor(name: string): NodeInfo {
    let info = this.nodes.get(name);
    if (!info) {
      info = new NodeInfo(undefined, this.opts.podOverhead ?? false);
      this.nodes.set(name, info);
      this.invalidateNodeLists();
    } else if (!info.node) this.invalidateNodeLists();
    return info;
  }

  private invalidateNodeLists(): void {
    this.nodeList = undefined;
    this.affinityLists = undefined;
  }

  /** The nodes known to exist (with a Node object), in a stable order. */
  nodeInfos(): readonly NodeInfo[] {
    if (this.nodeList === undefined)
      this.nodeList = [...this.nodes.values()].filter((n) => n.node !== undefined);
    return this.nodeList;
  }

  /** The nodes (as in {@link nodeInfos}) running at least one pod with pod affinity or anti-affinity. */
  nodeInfosWithAffinity(): readonly NodeInfo[] {
    return this.buildAffinityLists().withAffinity;
  }

  /** The nodes (as in {@link nodeInfos}) running at least one pod with required anti-affinity. */
  nodeInfosWithRequiredAntiAffinity(): readonly NodeInfo[] {
    return this.buildAffinityLists().withRequiredAntiAffinity;
  }

  private buildAffinityLists(): NonNullable<SchedulerCache['affinityLists']> {
    if (this.affinityLists === undefined) {
      const nodes = this.nodeInfos();
      this.affinityLists = {
        withAffinity: nodes.filter((n) => n.podsWithAffinity.size > 0),
        withRequiredAntiAffinity: nodes.filter((n) => n.podsWithRequiredAntiAffinity.size > 0),
      };
    }
    return this.affinityLists;
  }

  /** Pod affinity changes on a node change the lists of nodes with affinity pods. */
  private noteAffinity(pod: Pod): void {
    if (this.affinityLists !== undefined && podHasAffinity(pod)) this.affinityLists = undefined;
  }

  nodeInfo(name: string): NodeInfo | undefined {
    return this.nodes.get(name);
  }

  nodeCount(): number {
    return this.nodeInfos().length;
  }

  // Pods

  private placePod(pod: Pod): void {
    this.nodeInfoFor(pod.spec?.nodeName ?? '').addPod(pod);
    this.noteAffinity(pod);
  }

  private unplacePod(pod: Pod): void {
    const name = pod.spec?.nodeName ?? '';
    const info = this.nodes.get(name);
    if (!info) return;
    if (info.removePod(pod)) this.noteAffinity(pod);
    if (info.pods.size === 0 && !info.node) {
      this.nodes.delete(name);
      this.invalidateNodeLists();
    }
  }

  /** Accounts the pod (with spec.nodeName set) on its node before it is bound. */
  assumePod(pod: Pod): void {
    const key = podKey(pod);
    if (this.podStates.has(key)) throw new Error(`pod ${key} is in the cache, so can't be assumed`);
    this.placePod(pod);
    this.podStates.set(key, { pod, deadline: undefined, bindingFinished: false });
    this.assumedPods.add(key);
  }

  /** Starts the assumed pod's expiry clock. */
  finishBinding(pod: Pod): void {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (state && this.assumedPods.has(key)) {
      state.deadline = this.now() + this.ttlMs;
      state.bindingFinished = true;
    }
  }

  /** Drops an assumed pod (binding failed). */
  forgetPod(pod: Pod): void {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (!state || !this.assumedPods.has(key)) return;
    this.unplacePod(state.pod);
    this.podStates.delete(key);
    this.assumedPods.delete(key);
  }

  isAssumedPod(pod: Pod): boolean {
    return this.assumedPods.has(podKey(pod));
  }

  /** The cached version of a pod. */
  getPod(pod: Pod): Pod | undefined {
    return this.podStates.get(podKey(pod))?.pod;
  }

  /** A bound pod seen by the informer: confirms an assumed pod, or adds the pod. */
  addPod(pod: Pod): void {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (state && this.assumedPods.has(key)) {
      if (state.pod.spec?.nodeName !== pod.spec?.nodeName) {
        this.unplacePod(state.pod);
        this.placePod(pod);
      } else this.replacePod(state.pod, pod);
      this.assumedPods.delete(key);
      this.podStates.set(key, { pod, deadline: undefined, bindingFinished: false });
      return;
    }
    if (state) {
      this.updatePod(state.pod, pod);
      return;
    }
    this.placePod(pod);
    this.podStates.set(key, { pod, deadline: undefined, bindingFinished: false });
  }

  updatePod(_oldPod: Pod, newPod: Pod): void {
    const key = podKey(newPod);
    const state = this.podStates.get(key);
    if (!state || this.assumedPods.has(key)) {
      this.addPod(newPod);
      return;
    }
    if (state.pod.spec?.nodeName !== newPod.spec?.nodeName) {
      this.unplacePod(state.pod);
      this.placePod(newPod);
    } else this.replacePod(state.pod, newPod);
    state.pod = newPod;
  }

  private replacePod(oldPod: Pod, newPod: Pod): void {
    const info = this.nodes.get(newPod.spec?.nodeName ?? '');
    if (!info) {
      this.placePod(newPod);
      return;
    }
    info.removePod(oldPod);
    info.addPod(newPod);
    this.noteAffinity(oldPod);
    this.noteAffinity(newPod);
  }

  removePod(pod: Pod): void {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (!state) return;
    this.unplacePod(state.pod);
    this.podStates.delete(key);
    this.assumedPods.delete(key);
  }

  /** Expires assumed pods whose binding finished longer than the TTL ago. */
  cleanupAssumedPods(): void {
    const now = this.now();
    for (const key of [...this.assumedPods]) {
      const state = this.podStates.get(key)!;
      if (!state.bindingFinished || state.deadline === undefined || now < state.deadline) continue;
      this.unplacePod(state.pod);
      this.podStates.delete(key);
      this.assumedPods.delete(key);
      this.opts.onExpire?.(state.pod);
    }
  }

  /** Counts for tests and debugging. */
  podCount(): number {
    return this.podStates.size;
  }

  assumedPodCount(): number {
    return this.assumedPods.size;
  }
}
