import {
  ControllerRevisionKind,
  getControllerOf,
  PersistentVolumeClaimKind,
  PodKind,
  StatefulSetKind,
  type ControllerRevision,
  type PersistentVolumeClaim,
  type Pod,
  type StatefulSet,
} from '@orch/api';
import {
  ControllerRefManager,
  clientFor,
  isAlreadyExists,
  isNotFound,
  recheckDeletionTimestamp,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, errorMessage, QueueController, type ControllerContext } from '@orch/component-base';
import { isPodReady } from '../controller/podUtil';
import { RESOURCES } from '../controller/resources';
import { updateStatusWithRetry } from '../controller/updateStatus';
import { withKind } from '../controller/withKind';
import { resolveControllerRef, selectingObjects, specSelector } from '../controller/controllerRefs';
import { slowStartBatch } from '../replicaset/slowStartBatch';
import {
  claimMatchesRetentionPolicy,
  claimOwnerReferences,
  descendingOrdinal,
  endOrdinal,
  identityMatches,
  inOrdinalRange,
  isCreated,
  isFailed,
  isHealthy,
  isMemberOf,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  newVersionedStatefulSetPod,
  ordinalOf,
  podClaims,
  podRevision,
  POD_INDEX_LABEL,
  startOrdinal,
  STATEFUL_SET_POD_NAME_LABEL,
  storageMatches,
} from './statefulPods';
import {
  applyRevision,
  equalRevisions,
  newStatefulSetRevision,
  nextRevision,
  revisionsToTruncate,
  sortRevisions,
} from './statefulSetRevisions';
import {
  completeRollingUpdate,
  inconsistentStatus,
  replicaCounts,
  type StatefulSetStatus,
} from './statefulSetStatus';

/** Where a pass over the set's pods stopped: a step that must finish before the next one. */
type Step = (i: number) => Promise<boolean>;

/**
 * Gives each StatefulSet its pods `<set>-<ordinal>` with stable identities and claims, as
 * Kubernetes' StatefulSet controller does: OrderedReady sets create pods in order, each after the one
 * before is running and ready, and remove them from the highest ordinal down; Parallel sets do both
 * at once. Rolling updates replace pods from the highest ordinal down to the partition, one at a
 * time; the revision history in ControllerRevisions serves `kubectl rollout history` and `undo`;
 * claims follow the set's retention policy.
 */
export class StatefulSetController extends QueueController {
  private readonly setLister: Lister<StatefulSet>;
  private readonly podLister: Lister<Pod>;
  private readonly revisionLister: Lister<ControllerRevision>;
  private readonly claimLister: Lister<PersistentVolumeClaim>;
  private readonly pods: TypedClient<Pod>;
  private readonly sets: TypedClient<StatefulSet>;
  private readonly revisions: TypedClient<ControllerRevision>;
  private readonly claims: TypedClient<PersistentVolumeClaim>;

  constructor(ctx: ControllerContext) {
    super('statefulset', ctx);
    const setInformer = ctx.informers.informerFor<StatefulSet>(RESOURCES.statefulsets);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const revisionInformer = ctx.informers.informerFor<ControllerRevision>(RESOURCES.controllerrevisions);
    const claimInformer = ctx.informers.informerFor<PersistentVolumeClaim>(RESOURCES.persistentvolumeclaims);
    this.setLister = setInformer.lister();
    this.podLister = podInformer.lister();
    this.revisionLister = revisionInformer.lister();
    this.claimLister = claimInformer.lister();
    this.pods = clientFor(ctx.client, PodKind);
    this.sets = clientFor(ctx.client, StatefulSetKind);
    this.revisions = clientFor(ctx.client, ControllerRevisionKind);
    this.claims = clientFor(ctx.client, PersistentVolumeClaimKind);
    setInformer.addEventHandler({
      onAdd: (set) => this.enqueue(set),
      onUpdate: (_old, set) => this.enqueue(set),
      onDelete: (obj) => this.enqueue(deletedObject(obj)),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.podChanged(undefined, pod),
      onUpdate: (old, pod) => this.podChanged(old, pod),
      onDelete: (obj) => this.podChanged(undefined, deletedObject(obj)),
    });
    this.run([
      setInformer,
      podInformer,
      revisionInformer,
      claimInformer,
    ] as SharedIndexInformer<KubeObject>[]);
  }

  private key(set: StatefulSet): string {
    return `${set.metadata?.namespace}/${set.metadata?.name}`;
  }

  /** The set a controller reference names, when it is that very object. */
  private resolveRef(pod: Pod): StatefulSet | undefined {
    return resolveControllerRef(this.setLister, pod, 'StatefulSet');
  }

  private podChanged(old: Pod | undefined, pod: Pod): void {
    if (old && old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    if (old && getControllerOf(old)?.uid !== getControllerOf(pod)?.uid) {
      const previous = this.resolveRef(old);
      if (previous) this.enqueue(previous);
    }
    const set = this.resolveRef(pod);
    if (set) {
      this.enqueue(set);
      const minReady = set.spec?.minReadySeconds ?? 0;
      if (old && minReady > 0 && !isPodReady(old) && isPodReady(pod))
        this.enqueueAfter(this.key(set), minReady * 1000 + 1000);
      return;
    }
    if (getControllerOf(pod) || pod.metadata?.deletionTimestamp) return;
    for (const candidate of selectingObjects(this.setLister, pod)) this.enqueue(candidate);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const set = this.setLister.namespace(namespace).get(name);
    if (!set) return;
    const selector = specSelector(set);
    if (!selector || selector.empty()) {
      this.ctx.recorder.event(this.event(set), 'Warning', 'SelectorParseError', 'invalid selector');
      return;
    }
    const canAdopt = recheckDeletionTimestamp(
      () => this.sets.get(name, { namespace }),
      set.metadata?.uid ?? '',
    );
    const controllerKind = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
    const pods = await new ControllerRefManager<Pod>({
      controller: set,
      controllerKind,
      selector,
      client: this.pods,
      canAdopt,
    }).claim(this.podLister.namespace(namespace).list(), (pod) => isMemberOf(set, pod));
    const revisions = sortRevisions(
      await new ControllerRefManager<ControllerRevision>({
        controller: set,
        controllerKind,
        selector,
        client: this.revisions,
        canAdopt,
      }).claim(this.revisionLister.namespace(namespace).list()),
    );
    const { current, update, collisionCount } = await this.statefulSetRevisions(set, revisions);
    let status: StatefulSetStatus;
    let error: unknown;
    try {
      status = await this.updateStatefulSet(set, current, update, collisionCount, pods);
    } catch (err) {
      error = err;
      status = this.baseStatus(set, current, update, collisionCount, pods);
    }
    await this.writeStatus(set, status);
    if (error !== undefined) throw error;
    for (const rev of revisionsToTruncate(
      set,
      revisions,
      pods,
      current.metadata?.name ?? '',
      update.metadata?.name ?? '',
    )) {
      await this.revisions.delete(rev.metadata?.name ?? '', { namespace }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    const minReady = set.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && (status.readyReplicas ?? 0) !== (status.availableReplicas ?? 0))
      this.enqueueAfter(key, minReady * 1000);
  }

  /**
   * The current and update revisions (Kubernetes' getStatefulSetRevisions): the update revision is the
   * newest revision when it holds the template, an older one holding it renumbered newest (a roll
   * back), or a new one; the current revision is the one the status names, else the update revision.
   */
  private async statefulSetRevisions(
    set: StatefulSet,
    revisions: ControllerRevision[],
  ): Promise<{ current: ControllerRevision; update: ControllerRevision; collisionCount: number }> {
    let collisionCount = set.status?.collisionCount ?? 0;
    const equal = equalRevisions(set, revisions);
    const newest = revisions[revisions.length - 1];
    let update: ControllerRevision;
    if (equal.length && equal[equal.length - 1] === newest) {
      update = newest!;
    } else if (equal.length) {
      update = await this.revisions.update({
        ...equal[equal.length - 1]!,
        revision: nextRevision(revisions),
      });
    } else {
      // a name taken by another template is a hash collision: the next count names it differently
      for (;;) {
        const candidate = newStatefulSetRevision(set, nextRevision(revisions), collisionCount);
        try {
          update = await this.revisions.create(candidate);
          break;
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          const existing = await this.revisions.get(candidate.metadata?.name ?? '', {
            namespace: candidate.metadata?.namespace,
          });
          if (
            equalRevisions(set, [existing]).length &&
            getControllerOf(existing)?.uid === set.metadata?.uid
          ) {
            update = existing;
            break;
          }
          collisionCount++;
        }
      }
    }
    const current = revisions.find((r) => r.metadata?.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount };
  }

  /** The status before any pod is acted on: revisions, generation and the counts of the pods there are. */
  private baseStatus(
    set: StatefulSet,
    current: ControllerRevision,
    update: ControllerRevision,
    collisionCount: number,
    pods: readonly (Pod | undefined)[],
  ): StatefulSetStatus {
    return {
      ...set.status,
      observedGeneration: set.metadata?.generation,
      currentRevision: current.metadata?.name,
      updateRevision: update.metadata?.name,
      collisionCount,
      ...this.counts(set, current, update, pods),
    } as StatefulSetStatus;
  }

  private counts(
    set: StatefulSet,
    current: ControllerRevision,
    update: ControllerRevision,
    pods: readonly (Pod | undefined)[],
  ): ReturnType<typeof replicaCounts> {
    return replicaCounts(
      pods,
      set.spec?.minReadySeconds ?? 0,
      current.metadata?.name ?? '',
      update.metadata?.name ?? '',
      this.ctx.now(),
    );
  }

  /** Kubernetes' updateStatefulSet: the replicas, then the condemned, then the rolling update. */
  private async updateStatefulSet(
    set: StatefulSet,
    current: ControllerRevision,
    update: ControllerRevision,
    collisionCount: number,
    pods: Pod[],
  ): Promise<StatefulSetStatus> {
    const currentSet = applyRevision(set, current);
    const updateSet = applyRevision(set, update);
    const currentName = current.metadata?.name ?? '';
    const updateName = update.metadata?.name ?? '';
    const status = this.baseStatus(set, current, update, collisionCount, pods);
    const start = startOrdinal(set);
    const replicas: Pod[] = new Array<Pod>(Math.max(endOrdinal(set) - start + 1, 0));
    const condemnedUnsorted: Pod[] = [];
    for (const pod of pods) {
      if (inOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
      else if (ordinalOf(pod) >= 0) condemnedUnsorted.push(pod);
    }
    for (let i = 0; i < replicas.length; i++)
      replicas[i] ??= newVersionedStatefulSetPod(currentSet, updateSet, currentName, updateName, i + start);
    const condemned = descendingOrdinal(condemnedUnsorted);
    const firstUnhealthy =
      replicas.find((p) => !isHealthy(p)) ?? [...condemned].reverse().find((p) => !isHealthy(p));
    const finish = (): StatefulSetStatus =>
      Object.assign(status, this.counts(set, current, update, [...replicas, ...condemned]));
    if (set.metadata?.deletionTimestamp) return status;
    const monotonic = (set.spec?.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';
    const now = this.ctx.now();
    const minReady = set.spec?.minReadySeconds ?? 0;

    const processReplica: Step = async (i) => {
      let pod = replicas[i]!;
      if (isFailed(pod) || isSucceeded(pod)) {
        this.ctx.recorder.event(
          this.event(set),
          'Warning',
          isFailed(pod) ? 'RecreatingFailedPod' : 'RecreatingTerminatedPod',
          `StatefulSet ${set.metadata?.namespace}/${set.metadata?.name} is recreating ${isFailed(pod) ? 'failed' : 'terminated'} Pod ${pod.metadata?.name}`,
        );
        await this.deletePod(set, pod);
        pod = replicas[i] = newVersionedStatefulSetPod(
          currentSet,
          updateSet,
          currentName,
          updateName,
          i + start,
        );
      }
      if (!isCreated(pod)) {
        if (this.claimIsStale(set, pod)) return true;
        const created = await this.createPod(set, pod);
        if (!created || monotonic) return true;
      }
      if (isPending(pod)) await this.createMissingClaims(set, pod);
      if (
        monotonic &&
        (isTerminating(pod) || !isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))
      )
        return true;
      if (!identityMatches(set, pod) || !storageMatches(set, pod)) await this.updatePod(updateSet, pod);
      await this.fixClaims(updateSet, pod);
      return false;
    };
    if (await runForAll(replicas.length, processReplica, monotonic)) return finish();
    if (
      await runForAll(
        condemned.length,
        async (i) => (await this.fixClaims(updateSet, condemned[i]!), false),
        monotonic,
      )
    )
      return finish();

    const processCondemned: Step = async (i) => {
      const pod = condemned[i]!;
      if (isTerminating(pod)) return monotonic;
      if (
        monotonic &&
        pod !== firstUnhealthy &&
        (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))
      )
        return true;
      await this.deletePod(set, pod);
      return true;
    };
    if (await runForAll(condemned.length, processCondemned, monotonic)) return finish();
    finish();
    const strategy = set.spec?.updateStrategy;
    if (strategy?.type === 'OnDelete') return status;
    const partition = strategy?.rollingUpdate?.partition ?? 0;
    for (let target = replicas.length - 1; target >= partition; target--) {
      const pod = replicas[target]!;
      if (podRevision(pod) !== updateName && !isTerminating(pod)) {
        await this.deletePod(set, pod);
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return status;
      }
      if (!isHealthy(pod)) return status;
    }
    return status;
  }

  /** Writes the status when it changed, completing a finished rolling update first. */
  private async writeStatus(set: StatefulSet, status: StatefulSetStatus): Promise<void> {
    completeRollingUpdate(set, status);
    if (!inconsistentStatus(set, status)) return;
    try {
      await updateStatusWithRetry(this.sets, set, status);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** A claim still owned by a pod of the same name that is gone: wait for its deletion. */
  private claimIsStale(set: StatefulSet, pod: Pod): boolean {
    for (const claim of podClaims(set, ordinalOf(pod)).values()) {
      const existing = this.claimLister
        .namespace(set.metadata?.namespace ?? '')
        .get(claim.metadata?.name ?? '');
      if (existing?.metadata?.ownerReferences?.some((r) => r.kind === 'Pod' && r.name === pod.metadata?.name))
        return true;
    }
    return false;
  }

  /** Creates the pod's missing claims, then the pod; false when the pod exists already (a stale cache). */
  private async createPod(set: StatefulSet, pod: Pod): Promise<boolean> {
    await this.createMissingClaims(set, pod);
    try {
      await this.pods.create(pod);
    } catch (err) {
      if (isAlreadyExists(err)) return false;
      this.ctx.recorder.event(
        this.event(set),
        'Warning',
        'FailedCreate',
        `create Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} failed error: ${errorMessage(err)}`,
      );
      throw err;
    }
    this.ctx.recorder.event(
      this.event(set),
      'Normal',
      'SuccessfulCreate',
      `create Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} successful`,
    );
    return true;
  }

  private async createMissingClaims(set: StatefulSet, pod: Pod): Promise<void> {
    for (const claim of podClaims(set, ordinalOf(pod)).values()) {
      const name = claim.metadata?.name ?? '';
      const existing = this.claimLister.namespace(set.metadata?.namespace ?? '').get(name);
      if (existing) {
        if (existing.metadata?.deletionTimestamp)
          throw new Error(`pod ${pod.metadata?.name}: claim ${name} is being deleted`);
        continue;
      }
      claim.metadata = { ...claim.metadata, ownerReferences: claimOwnerReferences(set, pod, claim) };
      if (!claim.metadata.ownerReferences?.length) delete claim.metadata.ownerReferences;
      try {
        await this.claims.create(claim);
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        this.ctx.recorder.event(
          this.event(set),
          'Warning',
          'FailedCreate',
          `create Claim ${name} for Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} failed error: ${errorMessage(err)}`,
        );
        throw err;
      }
      this.ctx.recorder.event(
        this.event(set),
        'Normal',
        'SuccessfulCreate',
        `create Claim ${name} Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} success`,
      );
    }
  }

  /** Gives the pod's claims the owner references the retention policy asks for. */
  private async fixClaims(set: StatefulSet, pod: Pod): Promise<void> {
    if (!pod.metadata?.uid) return;
    for (const claim of podClaims(set, ordinalOf(pod)).values()) {
      const existing = this.claimLister
        .namespace(set.metadata?.namespace ?? '')
        .get(claim.metadata?.name ?? '');
      if (!existing || claimMatchesRetentionPolicy(set, pod, existing)) continue;
      await this.claims.patch(
        existing.metadata?.name ?? '',
        'merge',
        { metadata: { ownerReferences: claimOwnerReferences(set, pod, existing) } },
        { namespace: existing.metadata?.namespace },
      );
    }
  }

  /** Restores an adopted pod's identity labels and creates its missing claims. */
  private async updatePod(set: StatefulSet, pod: Pod): Promise<void> {
    await this.createMissingClaims(set, pod);
    const labels = {
      [STATEFUL_SET_POD_NAME_LABEL]: pod.metadata?.name,
      [POD_INDEX_LABEL]: String(ordinalOf(pod)),
    };
    if (Object.entries(labels).every(([k, v]) => pod.metadata?.labels?.[k] === v)) return;
    await this.pods.patch(
      pod.metadata?.name ?? '',
      'merge',
      { metadata: { labels } },
      { namespace: pod.metadata?.namespace },
    );
    this.ctx.recorder.event(
      this.event(set),
      'Normal',
      'SuccessfulUpdate',
      `update Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} successful`,
    );
  }

  private async deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.pods.delete(pod.metadata?.name ?? '', { namespace: pod.metadata?.namespace });
    } catch (err) {
      if (isNotFound(err)) return;
      this.ctx.recorder.event(
        this.event(set),
        'Warning',
        'FailedDelete',
        `delete Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} failed error: ${errorMessage(err)}`,
      );
      throw err;
    }
    this.ctx.recorder.event(
      this.event(set),
      'Normal',
      'SuccessfulDelete',
      `delete Pod ${pod.metadata?.name} in StatefulSet ${set.metadata?.name} successful`,
    );
  }

  private event(set: StatefulSet): StatefulSet {
    return withKind(set, 'apps/v1', 'StatefulSet');
  }
}

/**
 * Runs a step over the pods (Kubernetes' runForAll): in order, stopping at the first that asks to,
 * when monotonic; all at once (in slow-start batches, stopping at an error) otherwise. True when the
 * pass stopped.
 */
async function runForAll(count: number, step: Step, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < count; i++) if (await step(i)) return true;
    return false;
  }
  const { error } = await slowStartBatch(count, 1, async (i) => {
    await step(i);
  });
  if (error !== undefined) throw error;
  return false;
}
