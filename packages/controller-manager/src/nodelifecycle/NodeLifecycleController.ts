import {
  nodeZoneKey,
  getControllerOf,
  NodeKind,
  PodKind,
  type Lease,
  type Node,
  type ObjectReference,
  type Pod,
  type Taint,
} from '@orch/api';
import {
  clientFor,
  isConflict,
  isNotFound,
  waitForCacheSync,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, errorMessage, featureEnabled, QueueController } from '@orch/component-base';
import { podsByNode } from '../controller/podsByNode';
import { RESOURCES } from '../controller/resources';
import {
  nodeCondition,
  noScheduleTaintDiff,
  NOT_READY_TAINT_TEMPLATE,
  swapTaints,
  taintExists,
  UNREACHABLE_TAINT_TEMPLATE,
  type NodeCondition,
} from './conditionTaints';
import { observeNodeHealth, type HealthObservation, type NodeHealth } from './nodeHealth';
import { nodeLifecycleOptions, type NodeLifecycleOptions } from './nodeLifecycleOptions';
import { podNotReadyCondition } from './podConditions';
import { RateLimitedTimedQueue, type TimedValue, type TryResult } from './RateLimitedTimedQueue';
import { TaintManager } from './TaintManager';
import {
  isExcludedFromDisruptionChecks,
  type DisruptionExclusionGates,
  planDisruption,
  zoneName,
  type ZoneState,
} from './zoneStates';

/** Namespace of the nodes' Leases. */
export const NODE_LEASE_NAMESPACE = 'orch-node-lease';
/** How often the zone queues are worked (Kubernetes' NodeEvictionPeriod). */
export const NODE_EVICTION_PERIOD_MS = 100;
/** Attempts at updating one node's health in a monitoring pass. */
const NODE_HEALTH_UPDATE_RETRY = 5;
/** Nodes looked at in parallel in a monitoring pass. */
const NODE_UPDATE_WORKERS = 8;
/** Attempts at changing a node's taints when it changed meanwhile. */
const TAINT_UPDATE_RETRY = 5;

const nodeRef = (node: Node): ObjectReference => ({
  apiVersion: 'v1',
  kind: 'Node',
  name: node.metadata?.name,
  ...(node.metadata?.uid ? { uid: node.metadata.uid } : {}),
});

/** Runs `fn` over `items`, at most `limit` at a time. */
async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Kubernetes' node lifecycle controller. Every --node-monitor-period it looks at each node's
 * heartbeats (its Ready condition's lastHeartbeatTime and its Lease in orch-node-lease) and marks a
 * node not heard from for --node-monitor-grace-period (--node-startup-grace-period for one that
 * never posted status) Unknown, marking its pods not ready. It keeps the NoSchedule taints of node
 * conditions and spec.unschedulable, and puts the not-ready or unreachable NoExecute taint on nodes
 * whose Ready condition is False or Unknown, zone by zone at --node-eviction-rate (the secondary
 * rate, or none, in a partially disrupted zone; none at all when every zone is down). The taint
 * manager deletes the pods that do not tolerate those taints. With --enable-taint-manager=false or
 * the TaintBasedEvictions gate off, pods of nodes not ready for --pod-eviction-timeout are deleted
 * instead, at the same rates. The condition taints need the TaintNodesByCondition gate, and the
 * exclude-disruption label counts only with the NodeDisruptionExclusion gate on.
 */
export class NodeLifecycleController extends QueueController {
  readonly options: NodeLifecycleOptions;
  readonly taintManager: TaintManager | undefined;
  /**
   * NoExecute not-ready and unreachable taints, the taint manager evicting: --enable-taint-manager
   * with the TaintBasedEvictions gate on. Otherwise pods of nodes not ready for
   * --pod-eviction-timeout are deleted (the taint manager, when it runs, still evicts for other
   * NoExecute taints).
   */
  readonly useTaintBasedEvictions: boolean;
  /** NoSchedule taints of node conditions and spec.unschedulable (the TaintNodesByCondition gate). */
  readonly taintNodesByCondition: boolean;
  /** The exclude-disruption label is honoured (the NodeDisruptionExclusion gate). */
  private readonly disruptionExclusion: DisruptionExclusionGates;
  private readonly nodeLister: Lister<Node>;
  private readonly podLister: Lister<Pod>;
  private readonly leaseLister: Lister<Lease>;
  private readonly podsOnNode: (nodeName: string) => Pod[];
  private readonly nodes: TypedClient<Node>;
  private readonly pods: TypedClient<Pod>;
  private readonly health = new Map<string, NodeHealth>();
  private readonly knownNodes = new Map<string, Node>();
  private zoneStates = new Map<string, ZoneState>();
  /** Per zone: the nodes to taint NoExecute (taint-based evictions) or whose pods to delete (without). */
  private readonly zoneQueues = new Map<string, RateLimitedTimedQueue>();
  /** Without taint-based evictions: nodes whose pods are to be deleted, or were. */
  private readonly evictionStatus = new Map<string, 'toBeEvicted' | 'evicted'>();
  private readonly nodesToRetry = new Set<string>();
  private readonly stopping = new AbortController();
  private readonly passes = new Set<Promise<void>>();
  private synced = false;

  constructor(ctx: ControllerContext) {
    super('nodelifecycle', ctx);
    this.options = nodeLifecycleOptions(ctx.flags);
    this.useTaintBasedEvictions =
      this.options.enableTaintManager && featureEnabled(ctx, 'TaintBasedEvictions');
    this.taintNodesByCondition = featureEnabled(ctx, 'TaintNodesByCondition');
    this.disruptionExclusion = {
      nodeDisruptionExclusion: featureEnabled(ctx, 'NodeDisruptionExclusion'),
      legacyNodeRoleBehavior: featureEnabled(ctx, 'LegacyNodeRoleBehavior'),
    };
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const leaseInformer = ctx.informers.informerFor<Lease>(RESOURCES.leases);
    this.nodeLister = nodeInformer.lister();
    this.podLister = podInformer.lister();
    this.leaseLister = leaseInformer.lister();
    this.podsOnNode = podsByNode(podInformer);
    this.nodes = clientFor(ctx.client, NodeKind);
    this.pods = clientFor(ctx.client, PodKind);

    nodeInformer.addEventHandler({
      onAdd: (node) => this.queue.add(`node/${node.metadata?.name ?? ''}`),
      onUpdate: (_old, node) => this.queue.add(`node/${node.metadata?.name ?? ''}`),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => {
        if (pod.spec?.nodeName) this.queue.add(`pod/${pod.metadata?.namespace}/${pod.metadata?.name}`);
      },
      onUpdate: (old, pod) => {
        if (pod.spec?.nodeName && pod.spec.nodeName !== old.spec?.nodeName)
          this.queue.add(`pod/${pod.metadata?.namespace}/${pod.metadata?.name}`);
      },
    });
    this.taintManager = this.options.enableTaintManager
      ? new TaintManager({ ...ctx, workers: 8 }, nodeInformer, podInformer, (name) => this.podsOnNode(name))
      : undefined;

    const informers = [nodeInformer, podInformer, leaseInformer] as SharedIndexInformer<KubeObject>[];
    this.run(informers);
    void waitForCacheSync(
      informers.map((i) => () => i.hasSynced()),
      { signal: this.stopping.signal },
    ).then((synced) => {
      if (!synced) return;
      this.synced = true;
      this.loop(this.options.nodeMonitorPeriodMs, () => this.monitorNodeHealth());
      this.loop(NODE_EVICTION_PERIOD_MS, () =>
        this.useTaintBasedEvictions ? this.doNoExecuteTaintingPass() : this.doEvictionPass(),
      );
    });
  }

  override async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all([super.stop(), this.taintManager?.stop()]);
    await Promise.all([...this.passes]);
  }

  /** The zone states after the last monitoring pass, by zone key. */
  zones(): ReadonlyMap<string, ZoneState> {
    return this.zoneStates;
  }

  /** What the controller last saw of the node's heartbeats (a copy), if it looked at the node yet. */
  nodeHealth(name: string): NodeHealth | undefined {
    const health = this.health.get(name);
    return health && structuredClone(health);
  }

  /** The rate of each zone's queue. */
  zoneRates(): Map<string, number> {
    return new Map([...this.zoneQueues].map(([zone, q]) => [zone, q.qps]));
  }

  /** Runs `pass` every `periodMs`, one at a time, logging its failures. */
  private loop(periodMs: number, pass: () => Promise<void>): void {
    let running = false;
    const tick = (): void => {
      if (running || this.stopping.signal.aborted || !this.synced) return;
      running = true;
      const p = pass()
        .catch((err: unknown) => this.ctx.logger.error(`nodelifecycle: ${errorMessage(err)}`))
        .finally(() => {
          running = false;
          this.passes.delete(p);
        });
      this.passes.add(p);
    };
    this.every(periodMs, tick);
    tick();
  }

  private zoneQueue(zone: string): RateLimitedTimedQueue {
    let q = this.zoneQueues.get(zone);
    if (!q) {
      q = new RateLimitedTimedQueue(this.ctx.now, this.options.nodeEvictionRate);
      this.zoneQueues.set(zone, q);
    }
    return q;
  }

  protected async sync(key: string): Promise<void> {
    if (key.startsWith('node/')) return this.doNoScheduleTaintingPass(key.slice('node/'.length));
    const [namespace = '', name = ''] = key.slice('pod/'.length).split('/');
    return this.processPod(namespace, name);
  }

  /** Keeps the node's NoSchedule condition taints in line with its conditions. */
  private async doNoScheduleTaintingPass(name: string): Promise<void> {
    if (!this.taintNodesByCondition) return;
    const node = this.nodeLister.get(name);
    if (!node) return;
    const { add, remove } = noScheduleTaintDiff(node);
    if (add.length === 0 && remove.length === 0) return;
    if (!(await this.swapNodeTaints(node, add, remove)))
      throw new Error(`failed to swap the NoSchedule taints of node ${name}`);
  }

  /** A pod bound to a node: marked not ready if its node is not ready (evicted too, without taint-based evictions). */
  private async processPod(namespace: string, name: string): Promise<void> {
    const pod = this.podLister.namespace(namespace).get(name);
    const nodeName = pod?.spec?.nodeName;
    if (!pod || !nodeName) return;
    const health = this.health.get(nodeName);
    const node = this.nodeLister.get(nodeName);
    if (!health || !node) return;
    const ready = health.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready) return;
    if (!this.useTaintBasedEvictions) await this.processNoTaintBaseEviction(node, ready, [pod]);
    if (ready.status !== 'True') await this.markPodsNotReady([pod], nodeName);
  }

  /** One monitoring pass over every node (Kubernetes' monitorNodeHealth). */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.nodeLister.list();
    const names = new Set<string>();
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      names.add(name);
      const zone = nodeZoneKey(node);
      if (!this.zoneQueues.has(zone)) {
        this.zoneStates.set(zone, this.zoneStates.get(zone) ?? 'Initial');
        this.zoneQueue(zone);
      }
      if (this.knownNodes.has(name)) continue;
      this.ctx.recorder.event(
        nodeRef(node),
        'Normal',
        'RegisteredNode',
        `Registered Node ${name} in Controller`,
      );
      this.knownNodes.set(name, node);
      if (this.useTaintBasedEvictions) await this.markNodeAsReachable(node);
      else this.cancelPodEviction(node);
    }
    for (const [name, node] of this.knownNodes) {
      if (names.has(name)) continue;
      this.ctx.recorder.event(
        nodeRef(node),
        'Normal',
        'RemovingNode',
        `Removing Node ${name} from Controller`,
      );
      this.knownNodes.delete(name);
      this.health.delete(name);
      this.evictionStatus.delete(name);
      this.nodesToRetry.delete(name);
      this.zoneQueues.get(nodeZoneKey(node))?.remove(name);
    }

    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    await forEachLimit(nodes, NODE_UPDATE_WORKERS, async (listed) => {
      if (this.stopping.signal.aborted) return;
      const name = listed.metadata?.name ?? '';
      let node = listed;
      let observation: HealthObservation | undefined;
      for (let attempt = 0; attempt < NODE_HEALTH_UPDATE_RETRY && !observation; attempt++) {
        try {
          observation = await this.tryUpdateNodeHealth(node);
        } catch (err) {
          this.ctx.logger.warning(`nodelifecycle: updating the health of node ${name}: ${errorMessage(err)}`);
          try {
            node = await this.nodes.get(name);
          } catch (getErr) {
            this.ctx.logger.error(
              `nodelifecycle: getting node ${name} to retry updating its health (deleted?): ${errorMessage(getErr)}`,
            );
            return;
          }
        }
      }
      if (!observation) {
        this.ctx.logger.error(`nodelifecycle: could not update the health of node ${name}; skipping it`);
        return;
      }
      const { observedReady, currentReady } = observation;
      if (!isExcludedFromDisruptionChecks(node, this.disruptionExclusion)) {
        const zone = nodeZoneKey(node);
        zoneConditions.set(zone, [...(zoneConditions.get(zone) ?? []), currentReady]);
      }
      if (!currentReady) {
        this.nodesToRetry.delete(name);
        return;
      }
      const pods = this.podsOnNode(name);
      if (this.useTaintBasedEvictions) await this.processTaintBaseEviction(node, observedReady);
      else {
        try {
          await this.processNoTaintBaseEviction(node, observedReady, pods);
        } catch (err) {
          this.ctx.logger.error(`nodelifecycle: evicting the pods of node ${name}: ${errorMessage(err)}`);
        }
      }
      const becameNotReady = currentReady.status !== 'True' && observedReady.status === 'True';
      if (becameNotReady) {
        this.ctx.recorder.event(
          nodeRef(node),
          'Normal',
          'NodeNotReady',
          `Node ${name} status is now: NodeNotReady`,
        );
      }
      if (becameNotReady || (this.nodesToRetry.has(name) && currentReady.status !== 'True')) {
        try {
          await this.markPodsNotReady(pods, name);
        } catch (err) {
          this.ctx.logger.error(
            `nodelifecycle: marking the pods of node ${name} not ready: ${errorMessage(err)}`,
          );
          this.nodesToRetry.add(name);
          return;
        }
      }
      this.nodesToRetry.delete(name);
    });
    if (this.stopping.signal.aborted) return;
    await this.handleDisruption(zoneConditions, nodes);
  }

  /** Looks at one node's heartbeats and marks it Unknown when it went silent (nodes/status). */
  private async tryUpdateNodeHealth(node: Node): Promise<HealthObservation> {
    const name = node.metadata?.name ?? '';
    const lease = this.leaseLister.namespace(NODE_LEASE_NAMESPACE).get(name);
    const observation = observeNodeHealth(
      this.health.get(name),
      node,
      lease?.spec?.renewTime,
      this.ctx.now(),
      {
        monitorGracePeriodMs: this.options.nodeMonitorGracePeriodMs,
        startupGracePeriodMs: this.options.nodeStartupGracePeriodMs,
      },
    );
    this.health.set(name, observation.health);
    if (observation.statusUpdate) {
      this.ctx.logger.info(`nodelifecycle: node ${name} stopped posting its status; marking it Unknown`);
      await this.nodes.updateStatus({ ...node, status: observation.statusUpdate });
      this.health.set(name, observation.healthAfterUpdate!);
    }
    return observation;
  }

  /** The NoExecute taint for the node's observed Ready condition (taint-based evictions). */
  private async processTaintBaseEviction(node: Node, observedReady: NodeCondition): Promise<void> {
    const name = node.metadata?.name ?? '';
    switch (observedReady.status) {
      case 'False':
        if (taintExists(node.spec?.taints, UNREACHABLE_TAINT_TEMPLATE)) {
          if (!(await this.swapNodeTaints(node, [NOT_READY_TAINT_TEMPLATE], [UNREACHABLE_TAINT_TEMPLATE])))
            this.ctx.logger.error(
              `nodelifecycle: failed to swap the unreachable taint of node ${name} for not-ready`,
            );
        } else if (this.markNodeForTainting(node, 'False')) {
          this.ctx.logger.info(`nodelifecycle: node ${name} is NotReady; queued for tainting`);
        }
        break;
      case 'Unknown':
        if (taintExists(node.spec?.taints, NOT_READY_TAINT_TEMPLATE)) {
          if (!(await this.swapNodeTaints(node, [UNREACHABLE_TAINT_TEMPLATE], [NOT_READY_TAINT_TEMPLATE])))
            this.ctx.logger.error(
              `nodelifecycle: failed to swap the not-ready taint of node ${name} for unreachable`,
            );
        } else if (this.markNodeForTainting(node, 'Unknown')) {
          this.ctx.logger.info(`nodelifecycle: node ${name} is unresponsive; queued for tainting`);
        }
        break;
      case 'True':
        if (await this.markNodeAsReachable(node))
          this.ctx.logger.info(`nodelifecycle: node ${name} is healthy again; its NoExecute taints are gone`);
        break;
    }
  }

  private markNodeForTainting(node: Node, status: 'False' | 'Unknown'): boolean {
    const name = node.metadata?.name ?? '';
    const queue = this.zoneQueue(nodeZoneKey(node));
    const template = status === 'False' ? NOT_READY_TAINT_TEMPLATE : UNREACHABLE_TAINT_TEMPLATE;
    if (!taintExists(node.spec?.taints, template)) queue.remove(name);
    return queue.add(name, node.metadata?.uid ?? '');
  }

  /** Takes the not-ready and unreachable NoExecute taints off; true when it did. */
  private async markNodeAsReachable(node: Node): Promise<boolean> {
    const had =
      taintExists(node.spec?.taints, UNREACHABLE_TAINT_TEMPLATE) ||
      taintExists(node.spec?.taints, NOT_READY_TAINT_TEMPLATE);
    const ok = await this.swapNodeTaints(node, [], [UNREACHABLE_TAINT_TEMPLATE, NOT_READY_TAINT_TEMPLATE]);
    if (!ok) {
      this.ctx.logger.error(
        `nodelifecycle: failed to remove the NoExecute taints of node ${node.metadata?.name}; retrying next pass`,
      );
      return false;
    }
    this.zoneQueues.get(nodeZoneKey(node))?.remove(node.metadata?.name ?? '');
    return had;
  }

  /** Taints the queued nodes, each zone at its rate (Kubernetes' doNoExecuteTaintingPass). */
  private async doNoExecuteTaintingPass(): Promise<void> {
    for (const queue of [...this.zoneQueues.values()]) {
      await queue.try(async (v: TimedValue): Promise<TryResult> => {
        const node = this.nodeLister.get(v.value);
        if (!node) {
          this.ctx.logger.warning(`nodelifecycle: node ${v.value} is gone; not tainting it`);
          return { done: true };
        }
        const status = nodeCondition(node, 'Ready')?.status;
        let add: Taint;
        let opposite: Taint;
        if (status === 'False') [add, opposite] = [NOT_READY_TAINT_TEMPLATE, UNREACHABLE_TAINT_TEMPLATE];
        else if (status === 'Unknown')
          [add, opposite] = [UNREACHABLE_TAINT_TEMPLATE, NOT_READY_TAINT_TEMPLATE];
        else return { done: true };
        return { done: await this.swapNodeTaints(node, [add], [opposite]) };
      });
    }
  }

  /**
   * Applies the taint changes to the node (timeAdded now on the added ones), re-reading it when it
   * changed meanwhile; false when that failed.
   */
  private async swapNodeTaints(
    node: Node,
    add: readonly Taint[],
    remove: readonly Taint[],
  ): Promise<boolean> {
    const name = node.metadata?.name ?? '';
    let current = node;
    for (let attempt = 0; attempt < TAINT_UPDATE_RETRY; attempt++) {
      const taints = swapTaints(current.spec?.taints, add, remove, this.ctx.now());
      if (!taints) return true;
      try {
        await this.nodes.patch(name, 'merge', {
          metadata: { resourceVersion: current.metadata?.resourceVersion },
          spec: { taints },
        });
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        if (!isConflict(err)) {
          this.ctx.logger.error(`nodelifecycle: changing the taints of node ${name}: ${errorMessage(err)}`);
          return false;
        }
        try {
          current = await this.nodes.get(name);
        } catch (getErr) {
          this.ctx.logger.error(`nodelifecycle: getting node ${name}: ${errorMessage(getErr)}`);
          return false;
        }
      }
    }
    return false;
  }

  /** Kubernetes' MarkPodsNotReady: each pod's Ready condition False, through its status. */
  private async markPodsNotReady(pods: readonly Pod[], nodeName: string): Promise<void> {
    const errors: string[] = [];
    for (const pod of pods) {
      if (pod.spec?.nodeName !== nodeName) continue;
      const condition = podNotReadyCondition(pod, this.ctx.now());
      if (!condition) continue;
      const namespace = pod.metadata?.namespace;
      const name = pod.metadata?.name ?? '';
      try {
        await this.pods.patch(
          name,
          'strategic',
          { metadata: { uid: pod.metadata?.uid }, status: { conditions: [condition] } },
          { namespace, subresource: 'status' },
        );
      } catch (err) {
        if (isNotFound(err)) continue;
        errors.push(`${namespace}/${name}: ${errorMessage(err)}`);
        continue;
      }
      this.ctx.recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    if (errors.length > 0) throw new Error(`marking pods not ready: ${errors.join('; ')}`);
  }

  /** Zone states and rates after a pass (Kubernetes' handleDisruption). */
  private async handleDisruption(
    zoneConditions: ReadonlyMap<string, (NodeCondition | undefined)[]>,
    nodes: readonly Node[],
  ): Promise<void> {
    const plan = planDisruption(
      this.zoneStates,
      zoneConditions,
      this.options.unhealthyZoneThreshold,
      this.options,
    );
    if (plan.action === 'enterFullDisruption') {
      this.ctx.logger.info(
        'nodelifecycle: every node is not ready; entering full disruption mode, evictions stop',
      );
      for (const node of nodes) {
        if (this.useTaintBasedEvictions) await this.markNodeAsReachable(node);
        else this.cancelPodEviction(node);
      }
    } else if (plan.action === 'exitFullDisruption') {
      this.ctx.logger.info('nodelifecycle: some nodes are ready again; leaving full disruption mode');
      const now = this.ctx.now();
      for (const node of nodes) {
        const h = this.health.get(node.metadata?.name ?? '');
        if (h)
          this.health.set(node.metadata?.name ?? '', {
            ...h,
            probeTimestamp: now,
            readyTransitionTimestamp: now,
          });
      }
    }
    for (const [zone, rate] of plan.rates) {
      if (plan.action === 'update')
        this.ctx.logger.info(`nodelifecycle: zone ${zoneName(zone)} is now ${plan.states.get(zone)}`);
      this.zoneQueue(zone).swapLimiter(rate);
    }
    this.zoneStates = plan.states;
  }

  /** Without taint-based evictions: queues the pods of a node not ready for --pod-eviction-timeout for deletion. */
  private async processNoTaintBaseEviction(node: Node, observedReady: NodeCondition, pods: readonly Pod[]) {
    const name = node.metadata?.name ?? '';
    const health = this.health.get(name);
    if (!health) throw new Error(`no health data of node ${name}`);
    const now = this.ctx.now();
    const timeout = this.options.podEvictionTimeoutMs;
    switch (observedReady.status) {
      case 'False':
        if (now > health.readyTransitionTimestamp + timeout && (await this.evictPods(node, pods)))
          this.ctx.logger.info(`nodelifecycle: node ${name} is NotReady; queued its pods for eviction`);
        break;
      case 'Unknown':
        if (now > health.probeTimestamp + timeout && (await this.evictPods(node, pods)))
          this.ctx.logger.info(`nodelifecycle: node ${name} is unresponsive; queued its pods for eviction`);
        break;
      case 'True':
        if (this.cancelPodEviction(node))
          this.ctx.logger.info(
            `nodelifecycle: node ${name} is ready again; cancelled the eviction of its pods`,
          );
        break;
    }
  }

  /** Queues the node's pods for deletion; a node already evicted has its (new) pods deleted at once. */
  private async evictPods(node: Node, pods: readonly Pod[]): Promise<boolean> {
    const name = node.metadata?.name ?? '';
    if (this.evictionStatus.get(name) === 'evicted') {
      await this.deletePods(pods, name);
      return false;
    }
    this.evictionStatus.set(name, 'toBeEvicted');
    return this.zoneQueue(nodeZoneKey(node)).add(name, node.metadata?.uid ?? '');
  }

  private cancelPodEviction(node: Node): boolean {
    const name = node.metadata?.name ?? '';
    this.evictionStatus.delete(name);
    return this.zoneQueues.get(nodeZoneKey(node))?.remove(name) ?? false;
  }

  /** Deletes the queued nodes' pods, each zone at its rate (Kubernetes' doEvictionPass). */
  private async doEvictionPass(): Promise<void> {
    for (const queue of [...this.zoneQueues.values()]) {
      await queue.try(async (v: TimedValue): Promise<TryResult> => {
        const node = this.nodeLister.get(v.value);
        if (!node) this.ctx.logger.warning(`nodelifecycle: node ${v.value} is no longer there`);
        let remaining: boolean;
        try {
          remaining = await this.deletePods(this.podsOnNode(v.value), v.value);
        } catch (err) {
          this.ctx.logger.error(`nodelifecycle: deleting the pods of node ${v.value}: ${errorMessage(err)}`);
          return { done: false };
        }
        this.evictionStatus.set(v.value, 'evicted');
        if (remaining && node)
          this.ctx.recorder.event(
            nodeRef(node),
            'Normal',
            'TerminatingEvictedPod',
            `Node ${v.value} status is now: TerminatingEvictedPod`,
          );
        return { done: true };
      });
    }
  }

  /**
   * Deletes the pods of a lost node (not those of DaemonSets), first giving each the reason NodeLost;
   * true when some are still there (going).
   */
  private async deletePods(pods: readonly Pod[], nodeName: string): Promise<boolean> {
    let remaining = false;
    for (const pod of pods) {
      if (pod.spec?.nodeName !== nodeName) continue;
      const namespace = pod.metadata?.namespace;
      const name = pod.metadata?.name ?? '';
      try {
        if (pod.status?.reason !== 'NodeLost') {
          await this.pods.patch(
            name,
            'merge',
            {
              metadata: { uid: pod.metadata?.uid },
              status: {
                reason: 'NodeLost',
                message: `Node ${nodeName} which was running pod ${name} is unresponsive`,
              },
            },
            { namespace, subresource: 'status' },
          );
        }
        if (pod.metadata?.deletionGracePeriodSeconds !== undefined) {
          remaining = true;
          continue;
        }
        if (getControllerOf(pod)?.kind === 'DaemonSet') continue;
        this.ctx.recorder.event(
          { apiVersion: 'v1', kind: 'Node', name: nodeName },
          'Normal',
          'NodeControllerEviction',
          `Marking for deletion Pod ${name} from Node ${nodeName}`,
        );
        await this.pods.delete(name, { namespace });
        remaining = true;
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
    }
    return remaining;
  }
}
