import type { Pod } from '@orch/api';
import type { CycleState } from './cycleState';
import type { NodeInfo } from './nodeInfo';
import type { Status } from './status';

/** Highest and lowest score a Score plugin may give a node after normalization. */
export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

/** A pod waiting in the scheduling queue. */
export interface QueuedPodInfo {
  pod: Pod;
  /** When the pod was last added to the queue (ms). */
  timestamp: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** When the pod first entered the queue (ms), for the end-to-end latency metric. */
  initialAttemptTimestamp: number;
}

/** The writes the scheduler makes to the cluster. */
export interface SchedulerClient {
  /** POSTs pods/<name>/binding. */
  bind(pod: Pod, nodeName: string): Promise<void>;
  /** Sets a condition (and optionally status.nominatedNodeName) through pods/<name>/status. */
  updatePodCondition(
    pod: Pod,
    condition: { type: string; status: string; reason?: string; message?: string },
    nominatedNodeName?: string,
  ): Promise<void>;
  /** Records an event about the pod (never fails). */
  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, action: string, message: string): void;
}

/** A pod held at the Permit extension point. */
export interface WaitingPod {
  readonly pod: Pod;
  pendingPlugins(): string[];
  allow(pluginName: string): void;
  reject(message: string): void;
}

/** What plugins get from the framework that runs them. */
export interface FrameworkHandle {
  readonly client: SchedulerClient;
  /** The node infos of the current cluster snapshot. */
  nodeInfos(): readonly NodeInfo[];
  /** The node infos with pods that have pod affinity or anti-affinity. */
  nodeInfosWithAffinity(): readonly NodeInfo[];
  /** The node infos with pods that have required pod anti-affinity. */
  nodeInfosWithRequiredAntiAffinity(): readonly NodeInfo[];
  /** The labels of a namespace, undefined when it is not known (for namespace selectors). */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
  getWaitingPod(uid: string): WaitingPod | undefined;
  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void;
}

export interface Plugin {
  readonly name: string;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** A PreFilter answering Skip has the framework leave out the plugin's Filter for this pod. */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): Status | undefined;
}

/** Filters must be cheap: they run for many nodes per pod. Undefined means success. */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
}

export interface PostFilterResult {
  status: Status;
  nominatedNodeName?: string;
}

export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatuses: ReadonlyMap<string, Status>,
  ): PostFilterResult;
}

/** A PreScore answering Skip has the framework leave out the plugin's Score for this pod. */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status | undefined;
}

/** Score returns a number (errors are thrown); normalizeScore rescales all nodes' scores in place. */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number;
  normalizeScore?(state: CycleState, pod: Pod, scores: Float64Array): Status | undefined;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitResult {
  status: Status | undefined;
  /** How long to wait when the status is Wait (ms). */
  timeoutMs?: number;
}

export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): PermitResult;
}

export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined>;
}

/** A binder answering Skip leaves the pod to the next one. */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string): Promise<Status | undefined>;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Builds a plugin from its configured arguments. */
export type PluginFactory = (args: unknown, handle: FrameworkHandle) => Plugin;

/** Plugin factories by name. */
export type PluginRegistry = ReadonlyMap<string, PluginFactory>;
