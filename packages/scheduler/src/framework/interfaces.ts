import type {
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  ReplicationController,
  Service,
  StatefulSet,
  StorageClass,
} from '@orch/api';
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
  /** Deletes a pod (preemption); a pod already gone counts as deleted. */
  deletePod(pod: Pod): Promise<void>;
  /**
   * Strategic-merge-patches pods/<name>/status with `status` (preemption: a victim's
   * DisruptionTarget condition, clearing a nominatedNodeName with null).
   */
  patchPodStatus(pod: Pod, status: Record<string, unknown>): Promise<void>;
  /** PUTs a PersistentVolume (volume binding: its claimRef); resolves with the stored object. */
  updatePersistentVolume(volume: PersistentVolume): Promise<PersistentVolume>;
  /** PUTs a PersistentVolumeClaim (volume binding: its selected-node annotation). */
  updatePersistentVolumeClaim(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
}

/** The storage objects the volume plugins read, from informers. */
export interface VolumeListers {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  volumes(): readonly PersistentVolume[];
  storageClass(name: string): StorageClass | undefined;
  /** The CSINode of a node (named after it). */
  csiNode(name: string): CSINode | undefined;
}

/**
 * The Services, ReplicationControllers, ReplicaSets and StatefulSets of a namespace, from informers:
 * the objects whose selectors SelectorSpread spreads a pod's siblings by.
 */
export interface WorkloadListers {
  services(namespace: string): readonly Service[];
  replicationControllers(namespace: string): readonly ReplicationController[];
  replicaSets(namespace: string): readonly ReplicaSet[];
  statefulSets(namespace: string): readonly StatefulSet[];
}

/** The metrics plugins record (no-ops when the scheduler exposes none). */
export interface PluginMetrics {
  /** scheduler_preemption_attempts_total. */
  preemptionAttempted(): void;
  /** scheduler_preemption_victims. */
  preemptionVictims(count: number): void;
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
  /** Pods nominated (by preemption) to run on the node. */
  nominatedPodsForNode(nodeName: string): readonly Pod[];
  /** The latest version of a pod from the informer; undefined when it is gone. */
  getPod(namespace: string, name: string): Pod | undefined;
  /** The PodDisruptionBudgets of the cluster (none when the scheduler does not watch them). */
  podDisruptionBudgets(): readonly PodDisruptionBudget[];
  /** PersistentVolumeClaims, PersistentVolumes, StorageClasses and CSINodes (none when not watched). */
  readonly volumeListers: VolumeListers;
  /** Services, ReplicationControllers, ReplicaSets and StatefulSets (none when not watched). */
  readonly workloadListers: WorkloadListers;
  /** Whether a feature gate is on (false for gates orch does not know). */
  featureEnabled(name: string): boolean;
  readonly metrics: PluginMetrics;
  /** Runs the filters with the pods nominated to the node at the pod's priority or above added. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status;
  /** Tells the PreFilter plugins that `podToAdd` was added to `nodeInfo` (in a cloned state). */
  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: Pod,
    podToAdd: Pod,
    nodeInfo: NodeInfo,
  ): Status;
  /** Tells the PreFilter plugins that `podToRemove` was removed from `nodeInfo` (in a cloned state). */
  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: Pod,
    podToRemove: Pod,
    nodeInfo: NodeInfo,
  ): Status;
}

export interface Plugin {
  readonly name: string;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/**
 * Keeps a PreFilter plugin's cycle state right when preemption or nominated pods add or remove
 * pods on a node copy. They write new state objects (the cycle state is a shallow clone).
 */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: Pod, podToAdd: Pod, nodeInfo: NodeInfo): Status | undefined;
  removePod(state: CycleState, podToSchedule: Pod, podToRemove: Pod, nodeInfo: NodeInfo): Status | undefined;
}

/** A PreFilter answering Skip has the framework leave out the plugin's Filter for this pod. */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): Status | undefined;
  /** Present when the plugin's state depends on the pods of other nodes. */
  preFilterExtensions?(): PreFilterExtensions | undefined;
}

/** Filters must be cheap: they run for many nodes per pod. Undefined means success. */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
}

/** A PostFilter's outcome; a nominatedNodeName of '' clears the pod's nomination. */
export interface PostFilterResult {
  status: Status;
  nominatedNodeName?: string;
}

/** Runs when a pod fits no node; may make room (preemption) and nominate a node. */
export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatuses: ReadonlyMap<string, Status>,
  ): PostFilterResult | Promise<PostFilterResult>;
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
