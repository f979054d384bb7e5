import type { Pod, PodDisruptionBudget } from '@orch/api';
import { Logger } from '@orch/component-base';
import type { Registry } from 'prom-client';
import { SchedulerCache } from './cache/schedulerCache';
import { CycleState } from './framework/cycleState';
import { FitError, NO_NODES_AVAILABLE, withPostFilterMessage } from './framework/fitError';
import { Framework } from './framework/framework';
import type {
  PluginRegistry,
  QueuedPodInfo,
  SchedulerClient,
  VolumeListers,
  WorkloadListers,
} from './framework/interfaces';
import type { NodeInfo } from './framework/nodeInfo';
import { POD_OVERHEAD } from './framework/resource';
import {
  DEFAULT_SCHEDULER_NAME,
  defaultPlugins,
  mergePluginSet,
  type ProfileConfig,
} from './framework/profile';
import { Code, type Status } from './framework/status';
import { SchedulerMetrics, type AttemptResult } from './metrics/schedulerMetrics';
import { inTreeRegistry } from './plugins/registry';
import { SchedulingQueue } from './queue/schedulingQueue';
import { numFeasibleNodesToFind } from './numFeasibleNodesToFind';

/** Reason of the PodScheduled condition for pods that fit no node. */
export const REASON_UNSCHEDULABLE = 'Unschedulable';
/** Reason of the PodScheduled condition for internal errors. */
export const REASON_SCHEDULER_ERROR = 'SchedulerError';

export interface SchedulerOptions {
  client: SchedulerClient;
  /** At least one; pods are handled by the profile named by their spec.schedulerName. */
  profiles: ProfileConfig[];
  registry?: PluginRegistry;
  /** Percentage of nodes to score; 0 (default) adapts to the cluster size like Kubernetes. */
  percentageOfNodesToScore?: number;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  assumedPodTtlMs?: number;
  logger?: Logger;
  /** The /metrics registry; no metrics when absent. */
  metrics?: Registry;
  /** The latest version of a pod from the informer (namespace/name); used when requeueing failures. */
  podLister?: (namespace: string, name: string) => Pod | undefined;
  /** The labels of a namespace (from an informer), for pod affinity terms' namespace selectors. */
  namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  /** The PodDisruptionBudgets (from an informer), which preemption respects. */
  podDisruptionBudgets?: () => readonly PodDisruptionBudget[];
  /** Feature gates (e.g. PodDisruptionConditions); every gate is off without it. */
  featureEnabled?: (name: string) => boolean;
  /** PersistentVolumeClaims, PersistentVolumes and StorageClasses (from informers), for volume binding. */
  volumeListers?: VolumeListers;
  /** Services, ReplicationControllers, ReplicaSets and StatefulSets (from informers), for SelectorSpread. */
  workloadListers?: WorkloadListers;
  random?: () => number;
  now?: () => number;
}

function silentLogger(): Logger {
  return new Logger({}, { stderr: { write: () => true } });
}

/**
 * The scheduling loop: pop a pod, filter and score nodes with its profile's framework, assume it
 * on the best node, reserve, permit, and bind asynchronously while the next pod is scheduled.
 */
export class Scheduler {
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  readonly profiles = new Map<string, Framework>();
  private readonly logger: Logger;
  private readonly metrics: SchedulerMetrics | undefined;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly inFlight = new Set<Promise<void>>();
  private nextStartNodeIndex = 0;
  private loop: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly opts: SchedulerOptions) {
    if (opts.profiles.length === 0) throw new Error('at least one profile is required');
    this.logger = opts.logger ?? silentLogger();
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
    this.cache = new SchedulerCache({
      ...(opts.assumedPodTtlMs !== undefined ? { assumedPodTtlMs: opts.assumedPodTtlMs } : {}),
      now: this.now,
      podOverhead: opts.featureEnabled?.(POD_OVERHEAD) ?? false,
      onExpire: (pod) =>
        this.logger.warning(
          `Pod ${pod.metadata?.namespace}/${pod.metadata?.name} expired in the scheduler cache`,
        ),
    });
    this.metrics = opts.metrics
      ? new SchedulerMetrics(opts.metrics, () => this.queue.pendingPods())
      : undefined;
    const registry = opts.registry ?? inTreeRegistry();
    const queueSorts = new Set<string>();
    for (const profile of opts.profiles) {
      if (this.profiles.has(profile.schedulerName))
        throw new Error(`duplicate profile with scheduler name "${profile.schedulerName}"`);
      const fwk = new Framework(profile, registry, {
        client: opts.client,
        nodeInfos: () => this.cache.nodeInfos(),
        nodeInfosWithAffinity: () => this.cache.nodeInfosWithAffinity(),
        nodeInfosWithRequiredAntiAffinity: () => this.cache.nodeInfosWithRequiredAntiAffinity(),
        ...(opts.namespaceLabels ? { namespaceLabels: opts.namespaceLabels } : {}),
        // The queue is built after the frameworks (it needs their sort order).
        nominatedPodsForNode: (nodeName) => this.queue.nominator.nominatedPodsForNode(nodeName),
        ...(opts.podLister ? { getPod: opts.podLister } : {}),
        ...(opts.podDisruptionBudgets ? { podDisruptionBudgets: opts.podDisruptionBudgets } : {}),
        ...(opts.featureEnabled ? { featureEnabled: opts.featureEnabled } : {}),
        ...(opts.volumeListers ? { volumeListers: opts.volumeListers } : {}),
        ...(opts.workloadListers ? { workloadListers: opts.workloadListers } : {}),
        ...(this.metrics ? { metrics: this.metrics } : {}),
      });
      this.profiles.set(profile.schedulerName, fwk);
      queueSorts.add(JSON.stringify(mergePluginSet(defaultPlugins().queueSort, profile.plugins?.queueSort)));
    }
    if (queueSorts.size > 1) throw new Error('all profiles must use the same queue sort plugin');
    const first = this.profiles.values().next().value!;
    this.queue = new SchedulingQueue({
      less: first.queueSortLess,
      ...(opts.podInitialBackoffMs !== undefined ? { podInitialBackoffMs: opts.podInitialBackoffMs } : {}),
      ...(opts.podMaxBackoffMs !== undefined ? { podMaxBackoffMs: opts.podMaxBackoffMs } : {}),
      now: this.now,
      onMove: (event, moved) => this.logger.v(4).info(`${event}: moved ${moved} unschedulable pod(s)`),
    });
  }

  /** Whether a profile handles pods with this scheduler name. */
  responsibleFor(pod: Pod): boolean {
    return this.profiles.has(pod.spec?.schedulerName || DEFAULT_SCHEDULER_NAME);
  }

  /** Starts the queue flushes, the cache expiry and the scheduling loop. */
  run(): void {
    if (this.loop || this.stopped) return;
    this.queue.run();
    this.cache.run();
    this.loop = (async () => {
      while (!this.stopped) {
        let more = true;
        try {
          more = await this.scheduleOne();
        } catch (err) {
          this.logger.error(`scheduling cycle failed: ${err instanceof Error ? err.stack : String(err)}`);
        }
        if (!more) break;
        // Let informer events and binding answers in between pods.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
  }

  /** Stops scheduling and waits for bindings in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.close();
    this.cache.stop();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Waits for the bindings in flight (for tests and benchmarks). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Pods already assumed (being bound) or being deleted are not scheduled. */
  private skipPodSchedule(pod: Pod): boolean {
    return !!pod.metadata?.deletionTimestamp || this.cache.isAssumedPod(pod);
  }

  /** Schedules the next pod; false once the queue is closed. */
  async scheduleOne(): Promise<boolean> {
    const pInfo = await this.queue.pop();
    if (!pInfo) return false;
    const pod = pInfo.pod;
    const fwk = this.profiles.get(pod.spec?.schedulerName || DEFAULT_SCHEDULER_NAME);
    if (!fwk) {
      this.logger.error(`profile not found for scheduler name "${pod.spec?.schedulerName}"`);
      return true;
    }
    if (this.skipPodSchedule(pod)) return true;
    this.logger.v(3).info(`Attempting to schedule pod: ${podName(pod)}`);
    const cycle = this.queue.schedulingCycle;
    const attempt: Attempt = { pInfo, cycle, start: this.now() };
    const state = new CycleState();
    let host: string;
    try {
      host = this.schedulePod(fwk, state, pod);
    } catch (err) {
      if (err instanceof FitError) {
        let message = err.message;
        let nominatedNodeName: string | undefined;
        if (fwk.hasPostFilterPlugins()) {
          // PostFilter (preemption) may make room for the pod in a later cycle.
          const post = await fwk.runPostFilterPlugins(state, pod, err.filteredNodeStatuses);
          message = withPostFilterMessage(message, post.status.message());
          nominatedNodeName = post.nominatedNodeName;
          if (post.status.code === Code.Error)
            this.logger.error(
              `Status after running PostFilter plugins for pod ${podName(pod)}: ${post.status.message()}`,
            );
        }
        this.logger.v(2).info(`Unable to schedule pod ${podName(pod)}; no fit; waiting: ${message}`);
        this.recordFailure(fwk, attempt, message, REASON_UNSCHEDULABLE, 'unschedulable', nominatedNodeName);
      } else {
        const message = err instanceof Error ? err.message : String(err);
        this.logger.error(`Error scheduling pod ${podName(pod)}, retrying: ${message}`);
        this.recordFailure(fwk, attempt, message, REASON_SCHEDULER_ERROR, 'error');
      }
      return true;
    }
    const assumed: Pod = { ...pod, spec: { ...pod.spec!, nodeName: host } };
    try {
      this.cache.assumePod(assumed);
      // The pod now holds its room in the cache; its nomination no longer needs to.
      this.queue.nominator.delete(pod);
    } catch (err) {
      this.recordFailure(fwk, attempt, String(err), REASON_SCHEDULER_ERROR, 'error');
      return true;
    }
    const reserve = fwk.runReservePlugins(state, assumed, host);
    if (!reserve.isSuccess()) {
      this.undo(fwk, state, assumed, host);
      this.recordFailure(fwk, attempt, reserve.message(), REASON_SCHEDULER_ERROR, 'error');
      return true;
    }
    const permit = fwk.runPermitPlugins(state, assumed, host);
    if (!permit.isSuccess() && permit.code !== Code.Wait) {
      this.undo(fwk, state, assumed, host);
      this.recordPermitFailure(fwk, attempt, permit);
      return true;
    }
    const binding = this.bindingCycle(fwk, state, attempt, assumed, host);
    this.inFlight.add(binding);
    void binding.finally(() => this.inFlight.delete(binding));
    return true;
  }

  private async bindingCycle(
    fwk: Framework,
    state: CycleState,
    attempt: Attempt,
    assumed: Pod,
    host: string,
  ): Promise<void> {
    const waited = await fwk.waitOnPermit(assumed);
    if (!waited.isSuccess()) {
      this.undo(fwk, state, assumed, host);
      this.recordPermitFailure(fwk, attempt, waited);
      return;
    }
    const preBind = await fwk.runPreBindPlugins(state, assumed, host);
    if (!preBind.isSuccess()) {
      this.undo(fwk, state, assumed, host);
      this.recordFailure(fwk, attempt, preBind.message(), REASON_SCHEDULER_ERROR, 'error');
      return;
    }
    const bound = await fwk.runBindPlugins(state, assumed, host);
    if (!bound.isSuccess()) {
      this.undo(fwk, state, assumed, host);
      this.recordFailure(fwk, attempt, bound.message(), REASON_SCHEDULER_ERROR, 'error');
      return;
    }
    this.cache.finishBinding(assumed);
    this.observe('scheduled', fwk, attempt);
    this.logger.v(2).info(`pod ${podName(assumed)} is bound successfully on node "${host}"`);
    fwk.client.event(
      assumed,
      'Normal',
      'Scheduled',
      'Binding',
      `Successfully assigned ${podName(assumed)} to ${host}`,
    );
    fwk.runPostBindPlugins(state, assumed, host);
  }

  private undo(fwk: Framework, state: CycleState, assumed: Pod, host: string): void {
    fwk.runUnreservePlugins(state, assumed, host);
    this.cache.forgetPod(assumed);
  }

  private recordPermitFailure(fwk: Framework, attempt: Attempt, status: Status): void {
    const unschedulable = status.isUnschedulable();
    this.recordFailure(
      fwk,
      attempt,
      status.message(),
      unschedulable ? REASON_UNSCHEDULABLE : REASON_SCHEDULER_ERROR,
      unschedulable ? 'unschedulable' : 'error',
    );
  }

  /** Runs the filters and scores; returns the chosen node or throws (a FitError when nothing fits). */
  schedulePod(fwk: Framework, state: CycleState, pod: Pod): string {
    const nodes = this.cache.nodeInfos();
    if (nodes.length === 0) throw new Error(NO_NODES_AVAILABLE);
    const pre = fwk.runPreFilterPlugins(state, pod);
    if (!pre.isSuccess()) {
      if (!pre.isUnschedulable()) throw new Error(pre.message());
      throw new FitError(pod, nodes.length, new Map(nodes.map((n) => [n.name, pre])));
    }
    const statuses = new Map<string, Status>();
    // A node nominated by an earlier preemption is likely the only one with room: try it first.
    const nominated = this.evaluateNominatedNode(fwk, state, pod);
    if (nominated !== undefined) return nominated;
    const feasible = this.findNodesThatPassFilters(fwk, state, pod, nodes, statuses);
    if (feasible.length === 0) throw new FitError(pod, nodes.length, statuses);
    if (feasible.length === 1 || !fwk.hasScorePlugins()) {
      return feasible.length === 1
        ? feasible[0]!.name
        : feasible[Math.floor(this.random() * feasible.length)]!.name;
    }
    const preScore = fwk.runPreScorePlugins(state, pod, feasible);
    if (!preScore.isSuccess()) throw new Error(preScore.message());
    const totals = fwk.runScorePlugins(state, pod, feasible);
    return feasible[this.selectHost(totals)]!.name;
  }

  /** The pod's nominated node when it passes the filters (with the other nominated pods). */
  private evaluateNominatedNode(fwk: Framework, state: CycleState, pod: Pod): string | undefined {
    const name = pod.status?.nominatedNodeName;
    if (!name) return undefined;
    const info = this.cache.nodeInfo(name);
    if (info?.node === undefined) return undefined;
    const status = fwk.runFilterPluginsWithNominatedPods(state, pod, info);
    if (status.isSuccess()) return name;
    // An error here is logged; the other nodes are still evaluated, as in Kubernetes.
    if (!status.isUnschedulable())
      this.logger.error(
        `Evaluation failed on nominated node ${name} for pod ${podName(pod)}: ${status.message()}`,
      );
    return undefined;
  }

  /**
   * Filters nodes round-robin from where the previous pod stopped, until enough feasible nodes are
   * found (percentageOfNodesToScore); failures are recorded per node.
   */
  private findNodesThatPassFilters(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    nodes: readonly NodeInfo[],
    statuses: Map<string, Status>,
  ): NodeInfo[] {
    const n = nodes.length;
    const wanted = numFeasibleNodesToFind(n, this.opts.percentageOfNodesToScore ?? 0);
    const feasible: NodeInfo[] = [];
    let checked = 0;
    const start = this.nextStartNodeIndex % n;
    for (; checked < n && feasible.length < wanted; checked++) {
      const info = nodes[(start + checked) % n]!;
      const status = fwk.runFilterPluginsWithNominatedPods(state, pod, info);
      if (status.code === Code.Success) feasible.push(info);
      else if (status.isUnschedulable()) statuses.set(info.name, status);
      else throw new Error(status.message());
    }
    this.nextStartNodeIndex = (start + checked) % n;
    return feasible;
  }

  /** The index of a highest total score, chosen uniformly at random among ties. */
  selectHost(totals: Float64Array): number {
    let selected = 0;
    let max = totals[0]!;
    let ties = 1;
    for (let i = 1; i < totals.length; i++) {
      const s = totals[i]!;
      if (s > max) {
        max = s;
        selected = i;
        ties = 1;
      } else if (s === max) {
        ties++;
        if (Math.floor(this.random() * ties) === 0) selected = i;
      }
    }
    return selected;
  }

  private observe(result: AttemptResult, fwk: Framework, attempt: Attempt): void {
    this.metrics?.observeAttempt(result, fwk.profileName, (this.now() - attempt.start) / 1000);
  }

  /**
   * A failed attempt: a FailedScheduling event, the pod back in the queue (as unschedulable, if it
   * still exists unassigned), and the PodScheduled condition set to False with the reason.
   */
  private recordFailure(
    fwk: Framework,
    attempt: Attempt,
    message: string,
    reason: string,
    result: AttemptResult,
    nominatedNodeName?: string,
  ): void {
    const { pInfo, cycle } = attempt;
    const pod = pInfo.pod;
    this.observe(result, fwk, attempt);
    fwk.client.event(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
    const latest = this.opts.podLister
      ? this.opts.podLister(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '')
      : pod;
    // A pod that is gone, was replaced or got bound meanwhile is neither requeued nor updated.
    if (!latest || latest.metadata?.uid !== pod.metadata?.uid || latest.spec?.nodeName) return;
    if (!this.stopped) this.queue.addUnschedulableIfNotPresent({ ...pInfo, pod: latest }, cycle);
    // A nominated node reserves room for the pod; '' (preemption found no candidate) drops it.
    if (nominatedNodeName) this.queue.nominator.add(latest, nominatedNodeName);
    else if (nominatedNodeName === '') this.queue.nominator.delete(latest);
    fwk.client
      .updatePodCondition(
        latest,
        { type: 'PodScheduled', status: 'False', reason, message },
        nominatedNodeName,
      )
      .catch((err: unknown) =>
        this.logger.error(
          `Error updating pod ${podName(pod)}: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
  }
}

/** One scheduling attempt of a pod. */
interface Attempt {
  pInfo: QueuedPodInfo;
  /** The scheduling cycle the pod was popped in. */
  cycle: number;
  /** When the attempt started (ms). */
  start: number;
}

function podName(pod: Pod): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}
