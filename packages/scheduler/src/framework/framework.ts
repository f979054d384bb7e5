import type { Pod, PodDisruptionBudget } from '@orch/api';
import { podPriority } from '../plugins/prioritysort/prioritySort';
import type { CycleState } from './cycleState';
import type {
  BindPlugin,
  FilterPlugin,
  FrameworkHandle,
  Plugin,
  PluginMetrics,
  PluginRegistry,
  PostBindPlugin,
  PostFilterPlugin,
  PostFilterResult,
  PermitPlugin,
  PreBindPlugin,
  PreFilterExtensions,
  PreFilterPlugin,
  PreScorePlugin,
  QueueSortPlugin,
  QueuedPodInfo,
  ReservePlugin,
  SchedulerClient,
  ScorePlugin,
  VolumeListers,
  WaitingPod,
  WorkloadListers,
} from './interfaces';
import { MAX_NODE_SCORE, MIN_NODE_SCORE } from './interfaces';
import type { NodeInfo } from './nodeInfo';
import {
  defaultPlugins,
  EXTENSION_POINTS,
  gateDefault,
  mergePluginSet,
  type ExtensionPoint,
  type ProfileConfig,
} from './profile';
import { Code, Status } from './status';
import { WaitingPodImpl, WaitingPodsMap } from './waitingPods';

/** What a framework needs besides its profile and registry. */
export interface FrameworkDeps {
  client: SchedulerClient;
  nodeInfos: () => readonly NodeInfo[];
  /** Kept by the cache; computed from nodeInfos when absent. */
  nodeInfosWithAffinity?: () => readonly NodeInfo[];
  nodeInfosWithRequiredAntiAffinity?: () => readonly NodeInfo[];
  /** The labels of a namespace (from an informer); no namespace is known without it. */
  namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  /** The scheduling queue's nominated pods; none without it. */
  nominatedPodsForNode?: (nodeName: string) => readonly Pod[];
  /** The latest version of a pod (from the informer); without it plugins see no pods. */
  getPod?: (namespace: string, name: string) => Pod | undefined;
  /** The PodDisruptionBudgets (from an informer); none without it. */
  podDisruptionBudgets?: () => readonly PodDisruptionBudget[];
  /** Feature gates; each at its default without it. */
  featureEnabled?: (name: string) => boolean;
  /** The storage objects (from informers); none without them. */
  volumeListers?: VolumeListers;
  /** Services, ReplicationControllers, ReplicaSets and StatefulSets (from informers); none without them. */
  workloadListers?: WorkloadListers;
  metrics?: PluginMetrics;
}

/** No storage objects: every claim is missing. */
export const NO_VOLUME_LISTERS: VolumeListers = {
  claim: () => undefined,
  volume: () => undefined,
  volumes: () => [],
  storageClass: () => undefined,
  csiNode: () => undefined,
};

/** No Services, ReplicationControllers, ReplicaSets or StatefulSets. */
export const NO_WORKLOAD_LISTERS: WorkloadListers = {
  services: () => [],
  replicationControllers: () => [],
  replicaSets: () => [],
  statefulSets: () => [],
};

const NO_METRICS: PluginMetrics = {
  preemptionAttempted: () => undefined,
  preemptionVictims: () => undefined,
};

/** The method each extension point requires of a plugin. */
const POINT_METHODS: Record<ExtensionPoint, string> = {
  queueSort: 'less',
  preFilter: 'preFilter',
  filter: 'filter',
  postFilter: 'postFilter',
  preScore: 'preScore',
  score: 'score',
  reserve: 'reserve',
  permit: 'permit',
  preBind: 'preBind',
  bind: 'bind',
  postBind: 'postBind',
};

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The plugins of one profile, run at each extension point in their configured order. */
export class Framework implements FrameworkHandle {
  readonly profileName: string;
  readonly client: SchedulerClient;
  readonly metrics: PluginMetrics;
  readonly volumeListers: VolumeListers;
  readonly workloadListers: WorkloadListers;
  private readonly waitingPods = new WaitingPodsMap();
  private readonly queueSort: QueueSortPlugin;
  private readonly preFilters: PreFilterPlugin[];
  /** The PreFilter plugins with AddPod/RemovePod extensions, by plugin name. */
  private readonly preFilterExtensions: [string, PreFilterExtensions][];
  private readonly filters: FilterPlugin[];
  private readonly postFilters: PostFilterPlugin[];
  private readonly preScores: PreScorePlugin[];
  private readonly scores: ScorePlugin[];
  private readonly scoreWeights: number[];
  private readonly reserves: ReservePlugin[];
  private readonly permits: PermitPlugin[];
  private readonly preBinds: PreBindPlugin[];
  private readonly binds: BindPlugin[];
  private readonly postBinds: PostBindPlugin[];

  constructor(
    profile: ProfileConfig,
    registry: PluginRegistry,
    private readonly deps: FrameworkDeps,
  ) {
    this.profileName = profile.schedulerName;
    this.client = deps.client;
    this.metrics = deps.metrics ?? NO_METRICS;
    this.volumeListers = deps.volumeListers ?? NO_VOLUME_LISTERS;
    this.workloadListers = deps.workloadListers ?? NO_WORKLOAD_LISTERS;
    const defaults = defaultPlugins((name) => this.featureEnabled(name));
    const args = new Map((profile.pluginConfig ?? []).map((c) => [c.name, c.args]));
    const instances = new Map<string, Plugin>();
    const resolved = {} as Record<ExtensionPoint, { plugin: Plugin; weight: number }[]>;
    for (const point of EXTENSION_POINTS) {
      resolved[point] = mergePluginSet(defaults[point], profile.plugins?.[point]).map((ref) => {
        let plugin = instances.get(ref.name);
        if (!plugin) {
          const factory = registry.get(ref.name);
          if (!factory)
            throw new Error(`profile "${profile.schedulerName}": plugin "${ref.name}" does not exist`);
          plugin = factory(args.get(ref.name), this);
          instances.set(ref.name, plugin);
        }
        if (typeof (plugin as unknown as Record<string, unknown>)[POINT_METHODS[point]] !== 'function') {
          throw new Error(
            `profile "${profile.schedulerName}": plugin "${ref.name}" does not extend ${point} plugin`,
          );
        }
        const weight = ref.weight ?? 1;
        if (point === 'score' && (weight <= 0 || !Number.isInteger(weight)))
          throw new Error(
            `profile "${profile.schedulerName}": score plugin "${ref.name}" has invalid weight ${weight}`,
          );
        return { plugin, weight };
      });
    }
    if (resolved.queueSort.length !== 1)
      throw new Error(`profile "${profile.schedulerName}": exactly one queue sort plugin is required`);
    if (resolved.bind.length === 0)
      throw new Error(`profile "${profile.schedulerName}": at least one bind plugin is required`);
    const pick = <T>(point: ExtensionPoint): T[] => resolved[point].map((r) => r.plugin as unknown as T);
    this.queueSort = pick<QueueSortPlugin>('queueSort')[0]!;
    this.preFilters = pick('preFilter');
    this.preFilterExtensions = this.preFilters.flatMap((p) => {
      const ext = p.preFilterExtensions?.();
      return ext ? [[p.name, ext] as [string, PreFilterExtensions]] : [];
    });
    this.filters = pick('filter');
    this.postFilters = pick('postFilter');
    this.preScores = pick('preScore');
    this.scores = pick('score');
    this.scoreWeights = resolved.score.map((r) => r.weight);
    this.reserves = pick('reserve');
    this.permits = pick('permit');
    this.preBinds = pick('preBind');
    this.binds = pick('bind');
    this.postBinds = pick('postBind');
  }

  // FrameworkHandle

  nodeInfos(): readonly NodeInfo[] {
    return this.deps.nodeInfos();
  }

  nodeInfosWithAffinity(): readonly NodeInfo[] {
    return this.deps.nodeInfosWithAffinity
      ? this.deps.nodeInfosWithAffinity()
      : this.deps.nodeInfos().filter((n) => n.podsWithAffinity.size > 0);
  }

  nodeInfosWithRequiredAntiAffinity(): readonly NodeInfo[] {
    return this.deps.nodeInfosWithRequiredAntiAffinity
      ? this.deps.nodeInfosWithRequiredAntiAffinity()
      : this.deps.nodeInfos().filter((n) => n.podsWithRequiredAntiAffinity.size > 0);
  }

  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined {
    return this.deps.namespaceLabels?.(namespace);
  }

  getWaitingPod(uid: string): WaitingPod | undefined {
    return this.waitingPods.get(uid);
  }

  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void {
    this.waitingPods.forEach(fn);
  }

  nominatedPodsForNode(nodeName: string): readonly Pod[] {
    return this.deps.nominatedPodsForNode ? this.deps.nominatedPodsForNode(nodeName) : [];
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.deps.getPod?.(namespace, name);
  }

  podDisruptionBudgets(): readonly PodDisruptionBudget[] {
    return this.deps.podDisruptionBudgets?.() ?? [];
  }

  featureEnabled(name: string): boolean {
    return this.deps.featureEnabled ? this.deps.featureEnabled(name) : gateDefault(name);
  }

  /** The plugin names of an extension point, in order (for tests and /configz). */
  pluginNames(point: 'filter' | 'score' | 'preFilter' | 'postFilter' | 'bind'): string[] {
    const lists = {
      filter: this.filters,
      score: this.scores,
      preFilter: this.preFilters,
      postFilter: this.postFilters,
      bind: this.binds,
    };
    return lists[point].map((p) => p.name);
  }

  hasScorePlugins(): boolean {
    return this.scores.length > 0;
  }

  queueSortLess = (a: QueuedPodInfo, b: QueuedPodInfo): boolean => this.queueSort.less(a, b);

  runPreFilterPlugins(state: CycleState, pod: Pod): Status {
    for (const p of this.preFilters) {
      let s: Status | undefined;
      try {
        s = p.preFilter(state, pod);
      } catch (err) {
        s = Status.error(
          `error while running "${p.name}" prefilter plugin for pod "${pod.metadata?.name}": ${errorText(err)}`,
        );
      }
      if (s !== undefined && s.code === Code.Skip) {
        (state.skipFilterPlugins ??= new Set()).add(p.name);
        continue;
      }
      if (s !== undefined && !s.isSuccess()) {
        if (s.isUnschedulable()) return s.withPlugin(p.name);
        return Status.error(
          `error while running "${p.name}" prefilter plugin for pod "${pod.metadata?.name}": ${s.message()}`,
        ).withPlugin(p.name);
      }
    }
    const skip = state.skipFilterPlugins;
    state.filters = skip === undefined ? this.filters : this.filters.filter((f) => !skip.has(f.name));
    return Status.success();
  }

  /** Runs the filters on one node, stopping at the first that fails. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    // those PreFilter left to run; all but the skipped ones when PreFilter has not run on this state
    const filters = (state.filters as readonly FilterPlugin[] | undefined) ?? this.filters;
    const skip = state.filters === undefined ? state.skipFilterPlugins : undefined;
    for (let i = 0; i < filters.length; i++) {
      const p = filters[i]!;
      if (skip !== undefined && skip.has(p.name)) continue;
      let s: Status | undefined;
      try {
        s = p.filter(state, pod, nodeInfo);
      } catch (err) {
        s = Status.error(errorText(err));
      }
      if (s !== undefined && s.code !== Code.Success) {
        if (!s.isUnschedulable())
          return Status.error(
            `running "${p.name}" filter plugin for pod "${pod.metadata?.name}": ${s.message()}`,
          ).withPlugin(p.name);
        return s.failedPlugin === p.name ? s : s.withPlugin(p.name);
      }
    }
    return Status.success();
  }

  /**
   * Kubernetes' RunFilterPluginsWithNominatedPods: the filters run once with the pods nominated to
   * the node at the pod's priority or above added (so that the pod does not take their room), and,
   * when that passes and pods were added, once more without them (pod affinity to a nominated pod
   * that may never come must not count).
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    const nominated = nodeInfo.node !== undefined ? this.nominatedPodsForNode(nodeInfo.name) : [];
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    let stateWith: CycleState | undefined;
    let infoWith: NodeInfo | undefined;
    const priority = podPriority(pod);
    const uid = pod.metadata?.uid;
    for (const other of nominated) {
      if (podPriority(other) < priority || other.metadata?.uid === uid) continue;
      stateWith ??= state.clone();
      infoWith ??= nodeInfo.clone();
      infoWith.addPod(other);
      const added = this.runPreFilterExtensionAddPod(stateWith, pod, other, infoWith);
      if (!added.isSuccess()) return added;
    }
    if (stateWith === undefined || infoWith === undefined) return this.runFilterPlugins(state, pod, nodeInfo);
    const withNominated = this.runFilterPlugins(stateWith, pod, infoWith);
    if (!withNominated.isSuccess()) return withNominated;
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  runPreFilterExtensionAddPod(
    state: CycleState,
    podToSchedule: Pod,
    podToAdd: Pod,
    nodeInfo: NodeInfo,
  ): Status {
    return this.runPreFilterExtension('AddPod', state, podToSchedule, podToAdd, nodeInfo);
  }

  runPreFilterExtensionRemovePod(
    state: CycleState,
    podToSchedule: Pod,
    podToRemove: Pod,
    nodeInfo: NodeInfo,
  ): Status {
    return this.runPreFilterExtension('RemovePod', state, podToSchedule, podToRemove, nodeInfo);
  }

  /** Plugins whose PreFilter answered Skip have no state to update. */
  private runPreFilterExtension(
    op: 'AddPod' | 'RemovePod',
    state: CycleState,
    podToSchedule: Pod,
    other: Pod,
    nodeInfo: NodeInfo,
  ): Status {
    const skip = state.skipFilterPlugins;
    for (const [name, ext] of this.preFilterExtensions) {
      if (skip !== undefined && skip.has(name)) continue;
      let s: Status | undefined;
      try {
        s =
          op === 'AddPod'
            ? ext.addPod(state, podToSchedule, other, nodeInfo)
            : ext.removePod(state, podToSchedule, other, nodeInfo);
      } catch (err) {
        s = Status.error(errorText(err));
      }
      if (s !== undefined && !s.isSuccess())
        return Status.error(`running ${op} on PreFilter plugin "${name}": ${s.message()}`).withPlugin(name);
    }
    return Status.success();
  }

  hasPostFilterPlugins(): boolean {
    return this.postFilters.length > 0;
  }

  /**
   * Runs PostFilter plugins until one succeeds (e.g. nominates a node) or one answers
   * UnschedulableAndUnresolvable or an error; otherwise the Unschedulable reasons of all of them,
   * with the last result that nominates a node.
   */
  async runPostFilterPlugins(
    state: CycleState,
    pod: Pod,
    statuses: ReadonlyMap<string, Status>,
  ): Promise<PostFilterResult> {
    let nominatedNodeName: string | undefined;
    const reasons: string[] = [];
    let rejector = '';
    for (const p of this.postFilters) {
      let r: PostFilterResult;
      try {
        r = await p.postFilter(state, pod, statuses);
      } catch (err) {
        r = { status: Status.error(errorText(err)) };
      }
      const s = r.status;
      if (s.isSuccess()) return r;
      if (s.code === Code.UnschedulableAndUnresolvable) return { ...r, status: s.withPlugin(p.name) };
      if (!s.isUnschedulable()) return { status: Status.error(s.message()).withPlugin(p.name) };
      if (r.nominatedNodeName !== undefined) nominatedNodeName = r.nominatedNodeName;
      reasons.push(...s.reasons);
      rejector ||= p.name;
    }
    return {
      status: new Status(Code.Unschedulable, reasons).withPlugin(rejector),
      ...(nominatedNodeName !== undefined ? { nominatedNodeName } : {}),
    };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    for (const p of this.preScores) {
      const s = p.preScore(state, pod, nodes);
      if (s !== undefined && s.code === Code.Skip) {
        (state.skipScorePlugins ??= new Set()).add(p.name);
        continue;
      }
      if (s !== undefined && !s.isSuccess())
        return Status.error(
          `error while running "${p.name}" prescore plugin for pod "${pod.metadata?.name}": ${s.message()}`,
        );
    }
    return Status.success();
  }

  /**
   * Scores the nodes with every Score plugin (but those whose PreScore answered Skip), normalizes each plugin's scores, applies weights and
   * returns the total per node (in the order of `nodes`).
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Float64Array {
    const totals = new Float64Array(nodes.length);
    const scores = new Float64Array(nodes.length);
    const skip = state.skipScorePlugins;
    for (let i = 0; i < this.scores.length; i++) {
      const p = this.scores[i]!;
      if (skip !== undefined && skip.has(p.name)) continue;
      for (let n = 0; n < nodes.length; n++) scores[n] = p.score(state, pod, nodes[n]!);
      if (p.normalizeScore) {
        const s = p.normalizeScore(state, pod, scores);
        if (s !== undefined && !s.isSuccess())
          throw new Error(`normalize score plugin "${p.name}" failed: ${s.message()}`);
      }
      const weight = this.scoreWeights[i]!;
      for (let n = 0; n < nodes.length; n++) {
        const v = scores[n]!;
        if (v > MAX_NODE_SCORE || v < MIN_NODE_SCORE)
          throw new Error(
            `plugin "${p.name}" returns an invalid score ${v}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
          );
        totals[n] += v * weight;
      }
    }
    return totals;
  }

  runReservePlugins(state: CycleState, pod: Pod, nodeName: string): Status {
    for (const p of this.reserves) {
      const s = p.reserve(state, pod, nodeName);
      if (s !== undefined && !s.isSuccess())
        return Status.error(
          `error while running "${p.name}" reserve plugin for pod "${pod.metadata?.name}": ${s.message()}`,
        );
    }
    return Status.success();
  }

  /** Unreserve runs in reverse order and cannot fail. */
  runUnreservePlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reserves.length - 1; i >= 0; i--) this.reserves[i]!.unreserve(state, pod, nodeName);
  }

  /** Success, a rejection, or Wait (the pod is then among the waiting pods). */
  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status {
    const waits = new Map<string, number>();
    for (const p of this.permits) {
      const r = p.permit(state, pod, nodeName);
      const s = r.status;
      if (s === undefined || s.isSuccess()) continue;
      if (s.isUnschedulable()) return s.withPlugin(p.name);
      if (s.code === Code.Wait) {
        waits.set(p.name, Math.min(r.timeoutMs ?? MAX_PERMIT_TIMEOUT_MS, MAX_PERMIT_TIMEOUT_MS));
        continue;
      }
      return Status.error(
        `error while running "${p.name}" permit plugin for pod "${pod.metadata?.name}": ${s.message()}`,
      );
    }
    if (waits.size === 0) return Status.success();
    this.waitingPods.add(pod.metadata?.uid ?? '', new WaitingPodImpl(pod, waits));
    return new Status(Code.Wait, [
      `one or more plugins asked to wait and no plugin rejected pod "${pod.metadata?.name}"`,
    ]);
  }

  /** Resolves when a waiting pod is allowed or rejected; at once for a pod that does not wait. */
  async waitOnPermit(pod: Pod): Promise<Status> {
    const uid = pod.metadata?.uid ?? '';
    const wp = this.waitingPods.get(uid);
    if (!wp) return Status.success();
    try {
      return await wp.result;
    } finally {
      this.waitingPods.remove(uid);
    }
  }

  async runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    for (const p of this.preBinds) {
      const s = await p.preBind(state, pod, nodeName);
      if (s !== undefined && !s.isSuccess())
        return Status.error(
          `error while running "${p.name}" prebind plugin for pod "${pod.metadata?.name}": ${s.message()}`,
        );
    }
    return Status.success();
  }

  /** The first binder that does not answer Skip binds the pod. */
  async runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    let last: Status = new Status(Code.Skip);
    for (const p of this.binds) {
      let s: Status | undefined;
      try {
        s = await p.bind(state, pod, nodeName);
      } catch (err) {
        s = Status.error(errorText(err));
      }
      last = s ?? Status.success();
      if (last.code === Code.Skip) continue;
      if (!last.isSuccess())
        return Status.error(
          `binding rejected: plugin "${p.name}" failed to bind pod "${pod.metadata?.namespace}/${pod.metadata?.name}": ${last.message()}`,
        );
      return last;
    }
    return last;
  }

  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (const p of this.postBinds) p.postBind(state, pod, nodeName);
  }
}

/** Kubernetes' upper bound for a Permit plugin's wait. */
export const MAX_PERMIT_TIMEOUT_MS = 15 * 60 * 1000;
