import { isPodTerminal, formatTime, NodeKind, PodKind, type Node, type Pod } from '@orch/api';
import {
  clientFor,
  isNotFound,
  waitForCacheSync,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { errorMessage, type ControllerContext, type RunningController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { NodeQuarantine } from './NodeQuarantine';
import {
  missingNodeNames,
  orphanedPods,
  outOfServiceTerminatingPods,
  terminatedPodsToCollect,
  unscheduledTerminatingPods,
} from './podsToCollect';

/** How often the collector runs (Kubernetes' gcCheckPeriod). */
export const POD_GC_CHECK_PERIOD_MS = 20_000;
/** How long a node missing from the cache may take to show up before it is looked up (quarantineTime). */
export const POD_GC_QUARANTINE_MS = 40_000;
/** --terminated-pod-gc-threshold's default. */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12_500;
/** The flag giving how many terminated pods are kept. */
export const TERMINATED_POD_GC_THRESHOLD_FLAG = 'terminated-pod-gc-threshold';

/** Deletes issued at once within one part of a collection. */
const PARALLEL_DELETES = 16;

type PodCondition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

export interface PodGCOptions {
  /** Time between collections; POD_GC_CHECK_PERIOD_MS unless a test says. */
  periodMs?: number;
  /** Quarantine of missing nodes, on the controller's clock; POD_GC_QUARANTINE_MS unless a test says. */
  quarantineMs?: number;
  /** False: no periodic collection; the caller calls gc(). */
  autoStart?: boolean;
}

/**
 * The pod garbage collector (Kubernetes' podgc). Every 20 s it force-deletes: terminated pods
 * beyond --terminated-pod-gc-threshold (evicted first, then oldest first); terminating pods on
 * nodes that are not ready and carry the out-of-service taint; pods bound to nodes that do not
 * exist (missing from the cache for the quarantine, then not found by a GET), first marked Failed
 * with a DisruptionTarget condition; and terminating pods never bound to a node. Pods not yet
 * Succeeded or Failed are marked Failed before they are deleted.
 */
export class PodGCController implements RunningController {
  readonly terminatedPodThreshold: number;
  private readonly podLister: Lister<Pod>;
  private readonly nodeLister: Lister<Node>;
  private readonly pods: TypedClient<Pod>;
  private readonly nodes: TypedClient<Node>;
  private readonly quarantine: NodeQuarantine;
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ControllerContext,
    options: PodGCOptions = {},
  ) {
    const threshold = ctx.flags?.number(TERMINATED_POD_GC_THRESHOLD_FLAG);
    this.terminatedPodThreshold =
      threshold === undefined || !Number.isFinite(threshold)
        ? DEFAULT_TERMINATED_POD_GC_THRESHOLD
        : threshold;
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    this.podLister = podInformer.lister();
    this.nodeLister = nodeInformer.lister();
    this.pods = clientFor(ctx.client, PodKind);
    this.nodes = clientFor(ctx.client, NodeKind);
    this.quarantine = new NodeQuarantine(options.quarantineMs ?? POD_GC_QUARANTINE_MS);
    if (options.autoStart === false) return;
    const informers = [podInformer, nodeInformer] as SharedIndexInformer<KubeObject>[];
    void waitForCacheSync(
      informers.map((i) => () => i.hasSynced()),
      { signal: this.abort.signal },
    ).then((synced) => {
      if (!synced) return;
      const tick = (): void => {
        this.running = this.gc()
          .catch((err: unknown) => ctx.logger.error(`podgc: ${errorMessage(err)}`))
          .finally(() => {
            if (this.abort.signal.aborted) return;
            this.timer = setTimeout(tick, Math.max(10, options.periodMs ?? POD_GC_CHECK_PERIOD_MS));
            this.timer.unref();
          });
      };
      tick();
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.timer);
    await this.running;
  }

  /** One collection, from the informer caches. */
  async gc(): Promise<void> {
    const pods = this.podLister.list();
    const nodes = this.nodeLister.list();
    await this.deleteAll(terminatedPodsToCollect(pods, this.terminatedPodThreshold));
    await this.deleteAll(outOfServiceTerminatingPods(pods, (name) => this.nodeLister.get(name)));
    await this.gcOrphaned(pods, nodes);
    await this.deleteAll(unscheduledTerminatingPods(pods));
  }

  /** Deletes pods bound to nodes that are gone: missing from the cache past the quarantine, and not found. */
  private async gcOrphaned(pods: readonly Pod[], nodes: readonly Node[]): Promise<void> {
    const existing = new Set(nodes.map((n) => n.metadata?.name ?? ''));
    const now = this.ctx.now();
    for (const name of missingNodeNames(pods, existing)) this.quarantine.add(name, now);
    const deleted = new Set<string>();
    for (const name of this.quarantine.takeReady(now)) {
      if (existing.has(name) || this.abort.signal.aborted) continue;
      try {
        await this.nodes.get(name);
      } catch (err) {
        // Not found: gone. Any other error: the next collection quarantines it again if still missing.
        if (isNotFound(err)) deleted.add(name);
        else this.ctx.logger.error(`podgc: getting node "${name}": ${errorMessage(err)}`);
      }
    }
    if (deleted.size === 0) return;
    const condition: PodCondition = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
    };
    await this.deleteAll(orphanedPods(pods, deleted), condition);
  }

  private async deleteAll(pods: readonly Pod[], condition?: PodCondition): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < pods.length && !this.abort.signal.aborted) {
        await this.markFailedAndDelete(pods[next++]!, condition);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, pods.length) }, worker));
  }

  /**
   * Marks a pod that is not Succeeded or Failed as Failed (with `condition`, if any) through its
   * status, then deletes it with no grace period. Failures are logged; the next collection retries.
   */
  private async markFailedAndDelete(pod: Pod, condition?: PodCondition): Promise<void> {
    const name = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace;
    this.ctx.logger.info(`podgc: force deleting pod ${namespace}/${name}`);
    try {
      if (!isPodTerminal(pod)) {
        const status: Record<string, unknown> = { phase: 'Failed' };
        if (condition) {
          const current = pod.status?.conditions?.find((c) => c.type === condition.type);
          const lastTransitionTime =
            current?.status === condition.status && current?.lastTransitionTime
              ? current.lastTransitionTime
              : formatTime(this.ctx.now());
          status.conditions = [{ ...condition, lastTransitionTime }];
        }
        await this.pods.patch(
          name,
          'strategic',
          { metadata: { uid: pod.metadata?.uid }, status },
          { namespace, subresource: 'status' },
        );
      }
      await this.pods.delete(name, { namespace, gracePeriodSeconds: 0 });
    } catch (err) {
      if (!isNotFound(err))
        this.ctx.logger.error(`podgc: deleting pod ${namespace}/${name}: ${errorMessage(err)}`);
    }
  }
}
