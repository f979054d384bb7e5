import {
  isPodTerminal,
  CONTROLLER_REVISION_HASH_LABEL,
  ControllerRevisionKind,
  DaemonSetKind,
  getControllerOf,
  PodKind,
  type ControllerRevision,
  type DaemonSet,
  type LabelsSelector,
  type Node,
  type Pod,
} from '@orch/api';
import {
  ControllerExpectations,
  ControllerRefManager,
  clientFor,
  isAlreadyExists,
  isConflict,
  isNotFound,
  recheckDeletionTimestamp,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, errorMessage, QueueController, type ControllerContext } from '@orch/component-base';
import { isPodReady, podFromTemplate } from '../controller/podUtil';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import { resolveControllerRef, selectingObjects, specSelector } from '../controller/controllerRefs';
import { BURST_REPLICAS } from '../replicaset/ReplicaSetController';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from '../replicaset/slowStartBatch';
import { daemonPodTemplate, nodeNameAffinity, nodeShouldRunDaemonPod, targetNodeName } from './daemonPods';
import { daemonSetCounts, statusHolds } from './daemonSetStatus';
import { allowsSurge, managePlan } from './managePlan';
import {
  DAEMON_SET_GVK,
  maxRevision,
  newRevision,
  revisionHash,
  revisionMatches,
  revisionsToDelete,
} from './revisionHistory';
import { rollingUpdatePlan, updateBounds } from './rollingUpdatePlan';

/** Failed daemon pods on a node are replaced after 1 s, doubling up to 15 min (Kubernetes' failedPodsBackoff). */
const FAILED_POD_BACKOFF_MS = { initial: 1000, max: 15 * 60_000 };

/**
 * Runs a copy of each DaemonSet's pod on every node that should run it, as Kubernetes' daemon set
 * controller does: pods made for a node (bound there by the scheduler through a node affinity),
 * failed pods replaced with a backoff, rolling updates within maxUnavailable or maxSurge, the
 * revision history in ControllerRevisions for `kubectl rollout history` and `undo`, and the status
 * counts `kubectl rollout status` reads.
 */
export class DaemonSetController extends QueueController {
  readonly expectations: ControllerExpectations;
  private readonly dsLister: Lister<DaemonSet>;
  private readonly podLister: Lister<Pod>;
  private readonly nodeLister: Lister<Node>;
  private readonly revisionLister: Lister<ControllerRevision>;
  private readonly pods: TypedClient<Pod>;
  private readonly daemonSets: TypedClient<DaemonSet>;
  private readonly revisions: TypedClient<ControllerRevision>;
  /** Failed-pod backoff by `<ds uid>/<node>`: the current delay and when it was last taken. */
  private readonly backoff = new Map<string, { delayMs: number; at: number }>();

  constructor(ctx: ControllerContext) {
    super('daemonset', ctx);
    this.expectations = new ControllerExpectations(undefined, ctx.now);
    const dsInformer = ctx.informers.informerFor<DaemonSet>(RESOURCES.daemonsets);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    const revisionInformer = ctx.informers.informerFor<ControllerRevision>(RESOURCES.controllerrevisions);
    this.dsLister = dsInformer.lister();
    this.podLister = podInformer.lister();
    this.nodeLister = nodeInformer.lister();
    this.revisionLister = revisionInformer.lister();
    this.pods = clientFor(ctx.client, PodKind);
    this.daemonSets = clientFor(ctx.client, DaemonSetKind);
    this.revisions = clientFor(ctx.client, ControllerRevisionKind);
    dsInformer.addEventHandler({
      onAdd: (ds) => this.enqueue(ds),
      onUpdate: (_old, ds) => this.enqueue(ds),
      onDelete: (obj) => {
        const ds = deletedObject(obj);
        this.expectations.delete(this.key(ds));
        this.enqueue(ds);
      },
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.podAdded(pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (obj) => this.podDeleted(deletedObject(obj)),
    });
    nodeInformer.addEventHandler({
      onAdd: (node) => this.nodeChanged(undefined, node),
      onUpdate: (old, node) => this.nodeChanged(old, node),
      onDelete: (obj) => this.nodeChanged(deletedObject(obj), undefined),
    });
    const revisionChanged = (rev: ControllerRevision): void => {
      const ds = this.resolveRef(rev);
      if (ds) this.enqueue(ds);
    };
    revisionInformer.addEventHandler({
      onAdd: revisionChanged,
      onUpdate: (_old, rev) => revisionChanged(rev),
      onDelete: (obj) => revisionChanged(deletedObject(obj)),
    });
    this.run([dsInformer, podInformer, nodeInformer, revisionInformer] as SharedIndexInformer<KubeObject>[]);
  }

  private key(ds: DaemonSet): string {
    return `${ds.metadata?.namespace}/${ds.metadata?.name}`;
  }

  /** The DaemonSet a controller reference names, when it is that very object. */
  private resolveRef(obj: KubeObject): DaemonSet | undefined {
    return resolveControllerRef(this.dsLister, obj, 'DaemonSet');
  }

  /** DaemonSets whose selector matches an orphan's labels. */
  private matchingDaemonSets(obj: KubeObject): DaemonSet[] {
    return selectingObjects(this.dsLister, obj);
  }

  private podAdded(pod: Pod): void {
    if (pod.metadata?.deletionTimestamp) {
      this.podDeleted(pod);
      return;
    }
    const ds = this.resolveRef(pod);
    if (ds) {
      this.expectations.creationObserved(this.key(ds));
      this.enqueue(ds);
    } else if (!getControllerOf(pod)) {
      for (const m of this.matchingDaemonSets(pod)) this.enqueue(m);
    }
  }

  private podUpdated(old: Pod, pod: Pod): void {
    if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    if (pod.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) {
      this.podDeleted(pod);
      return;
    }
    if (getControllerOf(old)?.uid !== getControllerOf(pod)?.uid) {
      const previous = this.resolveRef(old);
      if (previous) this.enqueue(previous);
    }
    const ds = this.resolveRef(pod);
    if (ds) {
      this.enqueue(ds);
      const minReady = ds.spec?.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod))
        this.enqueueAfter(this.key(ds), minReady * 1000 + 1000);
    } else if (!getControllerOf(pod)) {
      for (const m of this.matchingDaemonSets(pod)) this.enqueue(m);
    }
  }

  private podDeleted(pod: Pod): void {
    const ds = this.resolveRef(pod);
    if (!ds) return;
    this.expectations.deletionObserved(this.key(ds));
    this.enqueue(ds);
  }

  /** A node that came, went or changed: the DaemonSets whose placement on it changed. */
  private nodeChanged(old: Node | undefined, node: Node | undefined): void {
    const none = { shouldRun: false, shouldContinueRunning: false };
    for (const ds of this.dsLister.list()) {
      const before = old ? nodeShouldRunDaemonPod(old, ds) : none;
      const after = node ? nodeShouldRunDaemonPod(node, ds) : none;
      if (
        before.shouldRun !== after.shouldRun ||
        before.shouldContinueRunning !== after.shouldContinueRunning
      )
        this.enqueue(ds);
    }
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ds = this.dsLister.namespace(namespace).get(name);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    const selector = specSelector(ds);
    if (!selector || selector.empty()) {
      this.ctx.recorder.event(
        this.event(ds),
        'Warning',
        'SelectingAll',
        'This daemon set is selecting all pods. A non-empty selector is required.',
      );
      return;
    }
    // the revisions and pods of a DaemonSet being deleted may be gone or orphaned already
    if (ds.metadata?.deletionTimestamp) return;
    const nodes = this.nodeLister.list();
    const { current, old } = await this.constructHistory(ds, selector);
    const hash = current.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
    if (!this.expectations.satisfiedExpectations(key)) {
      await this.updateStatus(ds, nodes, hash, selector, false);
      return;
    }
    let error: unknown;
    try {
      await this.update(ds, nodes, hash, selector, old);
    } catch (err) {
      error = err;
    }
    await this.updateStatus(ds, nodes, hash, selector, true);
    if (error !== undefined) throw error;
  }

  /** Manage, then roll, then trim the history (Kubernetes' updateDaemonSet). */
  private async update(
    ds: DaemonSet,
    nodes: Node[],
    hash: string,
    selector: LabelsSelector,
    old: ControllerRevision[],
  ): Promise<void> {
    const key = this.key(ds);
    const nodeToPods = await this.nodesToDaemonPods(ds, selector);
    const { maxSurge } = updateBounds(ds, nodes, new Map(nodeToPods));
    const plan = managePlan(ds, nodes, nodeToPods, hash, allowsSurge(ds, maxSurge), (pod, nodeName) =>
      this.failedPodMayGo(ds, pod, nodeName),
    );
    await this.syncNodes(ds, plan.podsToDelete, plan.nodesNeedingPods, hash);
    if (this.expectations.satisfiedExpectations(key) && ds.spec?.updateStrategy?.type === 'RollingUpdate') {
      const step = rollingUpdatePlan(
        ds,
        nodes,
        await this.nodesToDaemonPods(ds, selector),
        hash,
        this.ctx.now(),
      );
      await this.syncNodes(ds, step.podsToDelete, step.nodesNeedingPods, hash);
    }
    const limit = ds.spec?.revisionHistoryLimit ?? 10;
    const pods = [...(await this.nodesToDaemonPods(ds, selector)).values()].flat();
    for (const rev of revisionsToDelete(old, limit, pods)) {
      await this.revisions
        .delete(rev.metadata?.name ?? '', { namespace: rev.metadata?.namespace })
        .catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
    }
  }

  /**
   * Whether a failed daemon pod on the node goes now; otherwise the DaemonSet is looked at again
   * when the node's backoff ends. Each replacement doubles the backoff.
   */
  private failedPodMayGo(ds: DaemonSet, pod: Pod, nodeName: string): boolean {
    const backoffKey = `${ds.metadata?.uid}/${nodeName}`;
    const now = this.ctx.now();
    const entry = this.backoff.get(backoffKey);
    if (entry && now - entry.at < entry.delayMs) {
      this.enqueueAfter(this.key(ds), entry.delayMs - (now - entry.at));
      return false;
    }
    const expired = !entry || now - entry.at > 2 * FAILED_POD_BACKOFF_MS.max;
    const delayMs = expired
      ? FAILED_POD_BACKOFF_MS.initial
      : Math.min(entry.delayMs * 2, FAILED_POD_BACKOFF_MS.max);
    this.backoff.set(backoffKey, { delayMs, at: now });
    this.ctx.recorder.event(
      this.event(ds),
      'Warning',
      'FailedDaemonPod',
      `Found failed daemon pod ${pod.metadata?.namespace}/${pod.metadata?.name} on node ${nodeName}, will try to kill it`,
    );
    return true;
  }

  /**
   * The DaemonSet's pods by the node they are for, claimed as their controller (adopting orphans
   * that match, releasing pods that no longer do); finished pods being deleted are left out.
   */
  private async nodesToDaemonPods(ds: DaemonSet, selector: LabelsSelector): Promise<Map<string, Pod[]>> {
    const namespace = ds.metadata?.namespace ?? '';
    const pods = await new ControllerRefManager<Pod>({
      controller: ds,
      controllerKind: { apiVersion: 'apps/v1', kind: 'DaemonSet' },
      selector,
      client: this.pods,
      canAdopt: this.canAdopt(ds),
    }).claim(this.podLister.namespace(namespace).list());
    const byNode = new Map<string, Pod[]>();
    for (const pod of pods) {
      if (isPodTerminal(pod) && pod.metadata?.deletionTimestamp) continue;
      const node = targetNodeName(pod);
      if (node === undefined) continue;
      const list = byNode.get(node);
      if (list) list.push(pod);
      else byNode.set(node, [pod]);
    }
    return byNode;
  }

  private canAdopt(ds: DaemonSet): () => Promise<void> {
    const { name, namespace, uid } = ds.metadata ?? {};
    return recheckDeletionTimestamp(() => this.daemonSets.get(name ?? '', { namespace }), uid ?? '');
  }

  /**
   * The DaemonSet's current revision, made when none holds its template (Kubernetes'
   * constructHistory), numbered one above the old ones; duplicates of it are removed.
   */
  private async constructHistory(
    ds: DaemonSet,
    selector: LabelsSelector,
  ): Promise<{ current: ControllerRevision; old: ControllerRevision[] }> {
    const revisions = await new ControllerRefManager<ControllerRevision>({
      controller: ds,
      controllerKind: { apiVersion: 'apps/v1', kind: 'DaemonSet' },
      selector,
      client: this.revisions,
      canAdopt: this.canAdopt(ds),
    }).claim(this.revisionLister.namespace(ds.metadata?.namespace ?? '').list());
    const matching: ControllerRevision[] = [];
    const old: ControllerRevision[] = [];
    for (const rev of revisions) (revisionMatches(ds, rev) ? matching : old).push(rev);
    const next = maxRevision(old) + 1;
    if (matching.length === 0) return { current: await this.snapshot(ds, next), old };
    let current = await this.dedupe(ds, matching);
    if ((current.revision ?? 0) < next) current = await this.revisions.update({ ...current, revision: next });
    return { current, old };
  }

  /**
   * Keeps the newest of several revisions holding the current template: the others' pods are
   * relabelled with its hash and the others deleted (Kubernetes' dedupCurHistories).
   */
  private async dedupe(ds: DaemonSet, matching: ControllerRevision[]): Promise<ControllerRevision> {
    const keep = matching.reduce((a, b) => ((b.revision ?? 0) > (a.revision ?? 0) ? b : a));
    const keepHash = keep.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
    for (const dup of matching) {
      if (dup === keep) continue;
      const dupHash = dup.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
      for (const pod of this.podLister.namespace(ds.metadata?.namespace ?? '').list()) {
        if (pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] !== dupHash) continue;
        if (this.resolveRef(pod)?.metadata?.uid !== ds.metadata?.uid) continue;
        await this.pods.patch(
          pod.metadata?.name ?? '',
          'merge',
          { metadata: { labels: { [CONTROLLER_REVISION_HASH_LABEL]: keepHash } } },
          { namespace: pod.metadata?.namespace },
        );
      }
      await this.revisions
        .delete(dup.metadata?.name ?? '', { namespace: dup.metadata?.namespace })
        .catch((err) => {
          if (!isNotFound(err)) throw err;
        });
    }
    return keep;
  }

  /**
   * Creates the revision of the DaemonSet's template (Kubernetes' snapshot). A revision of that name
   * holding another template is a hash collision: the DaemonSet's collisionCount goes up, which
   * names the next attempt differently.
   */
  private async snapshot(ds: DaemonSet, revision: number): Promise<ControllerRevision> {
    const hash = revisionHash(ds);
    const rev = newRevision(ds, hash, revision);
    try {
      return await this.revisions.create(rev);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const existing = await this.revisions.get(rev.metadata?.name ?? '', {
        namespace: rev.metadata?.namespace,
      });
      if (revisionMatches(ds, existing)) return existing;
      const fresh = await this.daemonSets.get(ds.metadata?.name ?? '', { namespace: ds.metadata?.namespace });
      const collisions = fresh.status?.collisionCount;
      if (collisions !== ds.status?.collisionCount)
        throw new Error(
          `found a stale collision count (${ds.status?.collisionCount}, expected ${collisions}) of DaemonSet ${this.key(ds)} while processing; will retry until it is updated`,
          { cause: err },
        );
      await this.daemonSets.updateStatus({
        ...fresh,
        status: { ...fresh.status!, collisionCount: (collisions ?? 0) + 1 },
      });
      throw err;
    }
  }

  /**
   * Creates pods for nodes and deletes pods, at most BURST_REPLICAS of each, creations in slow-start
   * batches, the expectations set first (Kubernetes' syncNodes).
   */
  private async syncNodes(
    ds: DaemonSet,
    podsToDelete: string[],
    nodes: string[],
    hash: string,
  ): Promise<void> {
    const key = this.key(ds);
    const creates = nodes.slice(0, BURST_REPLICAS);
    const deletes = podsToDelete.slice(0, BURST_REPLICAS);
    if (!creates.length && !deletes.length) return;
    this.expectations.setExpectations(key, creates.length, deletes.length);
    const template = daemonPodTemplate(ds, hash);
    const errors: unknown[] = [];
    let attempted = 0;
    const { error } = await slowStartBatch(creates.length, SLOW_START_INITIAL_BATCH_SIZE, async (i) => {
      attempted++;
      const pod = podFromTemplate(ds, template, DAEMON_SET_GVK);
      pod.spec = { ...pod.spec!, affinity: nodeNameAffinity(pod.spec?.affinity, creates[i]!) };
      try {
        const created = await this.pods.create(pod);
        this.ctx.recorder.event(
          this.event(ds),
          'Normal',
          'SuccessfulCreate',
          `Created pod: ${created.metadata?.name}`,
        );
      } catch (err) {
        this.expectations.creationObserved(key);
        this.ctx.recorder.event(
          this.event(ds),
          'Warning',
          'FailedCreate',
          `Error creating: ${errorMessage(err)}`,
        );
        throw err;
      }
    });
    if (error !== undefined) {
      errors.push(error);
      // creations never attempted are not expected
      const skipped = creates.length - attempted;
      if (skipped > 0) this.expectations.lowerExpectations(key, skipped, 0);
    }
    const results = await Promise.allSettled(
      deletes.map(async (name) => {
        try {
          await this.pods.delete(name, { namespace: ds.metadata?.namespace });
          this.ctx.recorder.event(this.event(ds), 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
        } catch (err) {
          this.expectations.deletionObserved(key);
          if (isNotFound(err)) return;
          this.ctx.recorder.event(
            this.event(ds),
            'Warning',
            'FailedDelete',
            `Error deleting: ${errorMessage(err)}`,
          );
          throw err;
        }
      }),
    );
    for (const r of results) if (r.status === 'rejected') errors.push(r.reason);
    if (errors.length) throw new Error(errors.map(errorMessage).join('; '));
  }

  /**
   * Writes the status counts when they changed, and the observed generation when the DaemonSet was
   * acted on; looks again after minReadySeconds while ready pods are not available yet.
   */
  private async updateStatus(
    ds: DaemonSet,
    nodes: Node[],
    hash: string,
    selector: LabelsSelector,
    observeGeneration: boolean,
  ): Promise<void> {
    const counts = daemonSetCounts(
      ds,
      nodes,
      await this.nodesToDaemonPods(ds, selector),
      hash,
      this.ctx.now(),
    );
    if (!statusHolds(ds, counts, observeGeneration)) {
      const write = (from: DaemonSet): Promise<DaemonSet> =>
        this.daemonSets.updateStatus({
          ...from,
          status: {
            ...from.status,
            ...counts,
            ...(observeGeneration ? { observedGeneration: from.metadata?.generation } : {}),
          },
        });
      try {
        await write(ds);
      } catch (err) {
        if (!isConflict(err)) throw err;
        const fresh = await this.daemonSets.get(ds.metadata?.name ?? '', {
          namespace: ds.metadata?.namespace,
        });
        await write(fresh);
      }
    }
    const minReady = ds.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && counts.numberReady !== counts.numberAvailable)
      this.enqueueAfter(this.key(ds), minReady * 1000);
  }

  private event(ds: DaemonSet): DaemonSet {
    return withKind(ds, 'apps/v1', 'DaemonSet');
  }
}
