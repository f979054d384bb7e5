import {
  getControllerOf,
  labelSelectorAsSelector,
  PodKind,
  ReplicaSetKind,
  type LabelSelectorLike,
  type Pod,
  type ReplicaSet,
} from '@orch/api';
import {
  ControllerExpectations,
  ControllerRefManager,
  recheckDeletionTimestamp,
  clientFor,
  isNotFound,
  splitMetaNamespaceKey,
  type TypedClient,
  type KubeObject,
  type Lister,
  type ResourceDescriptor,
  type RestClient,
  type SharedIndexInformer,
} from '@orch/client';
import { errorMessage, type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { isPodActive, isPodReady, podFromTemplate } from '../controller/podUtil';
import { withKind } from '../controller/withKind';
import { resolveControllerRef, selectingObjects } from '../controller/controllerRefs';
import { RESOURCES } from '../controller/resources';
import { calculateReplicaSetStatus, sameReplicaSetStatus, type ReplicaSetLike } from './replicaSetStatus';
import { podsToDelete } from './rankPodsForDeletion';
import { SLOW_START_INITIAL_BATCH_SIZE, slowStartBatch } from './slowStartBatch';
import { updateStatusWithRetry } from '../controller/updateStatus';

/** At most this many pods are created or deleted in one sync (Kubernetes' BurstReplicas). */
export const BURST_REPLICAS = 500;

export const REPLICA_SET_GVK = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };

/**
 * The kind the controller keeps pods for, and how it reads it: ReplicaSets, or ReplicationControllers
 * (Kubernetes runs its ReplicaSet controller over them through an adapter).
 */
export interface ReplicatedKind<T extends ReplicaSetLike & KubeObject> {
  /** The controller's name (its work queue and log lines). */
  name: string;
  /** The objects' resource, for their informer. */
  resource: ResourceDescriptor;
  /** The kind in controller references and in the objects of events. */
  gvk: { group: string; version: string; kind: string };
  /** A client for the objects. */
  client(rest: RestClient): TypedClient<T>;
  /** The object's selector as a label selector (undefined selects nothing). */
  selector(obj: T): LabelSelectorLike | undefined;
}

/** The controller over ReplicaSets. */
export const REPLICA_SET_KIND: ReplicatedKind<ReplicaSet> = {
  name: 'replicaset',
  resource: RESOURCES.replicasets,
  gvk: REPLICA_SET_GVK,
  client: (rest) => clientFor(rest, ReplicaSetKind),
  selector: (rs) => rs.spec?.selector,
};

/** The pod a ReplicaSet creates from its template. */
export function replicaSetPod(rs: ReplicaSet): Pod {
  return podFromTemplate(rs, rs.spec?.template, REPLICA_SET_GVK);
}

/** Keeps the number of pods of every object of its kind (ReplicaSets unless given) at its replicas. */
export class ReplicaSetController<
  T extends ReplicaSetLike & KubeObject = ReplicaSet,
> extends QueueController {
  readonly expectations: ControllerExpectations;
  private readonly rsLister: Lister<T>;
  private readonly podLister: Lister<Pod>;
  private readonly pods: TypedClient<Pod>;
  private readonly replicaSets: TypedClient<T>;
  private readonly apiVersion: string;

  constructor(
    ctx: ControllerContext,
    private readonly kind: ReplicatedKind<T>,
  ) {
    super(kind.name, ctx);
    const { group, version } = kind.gvk;
    this.apiVersion = group ? `${group}/${version}` : version;
    this.expectations = new ControllerExpectations(undefined, ctx.now);
    const rsInformer = ctx.informers.informerFor<T>(kind.resource);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    this.rsLister = rsInformer.lister();
    this.podLister = podInformer.lister();
    this.pods = clientFor(ctx.client, PodKind);
    this.replicaSets = kind.client(ctx.client);
    rsInformer.addEventHandler({
      onAdd: (rs) => this.enqueue(rs),
      onUpdate: (_old, rs) => this.enqueue(rs),
      onDelete: (obj) => {
        const rs = deletedObject(obj);
        this.expectations.delete(`${rs.metadata?.namespace}/${rs.metadata?.name}`);
        this.enqueue(rs);
      },
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.podAdded(pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (obj) => this.podDeleted(deletedObject(obj)),
    });
    this.run([rsInformer, podInformer] as SharedIndexInformer<KubeObject>[]);
  }

  /** The owner a controller reference names, when it is that very object. */
  private resolveRef(pod: Pod): T | undefined {
    return resolveControllerRef(this.rsLister, pod, this.kind.gvk.kind);
  }

  private key(rs: T): string {
    return `${rs.metadata?.namespace}/${rs.metadata?.name}`;
  }

  /** The objects whose selector matches an orphan pod. */
  private matchingReplicaSets(pod: Pod): T[] {
    return selectingObjects(this.rsLister, pod, this.kind.selector);
  }

  /** The object as events name it. */
  private involved(rs: T): T {
    return withKind(rs, this.apiVersion, this.kind.gvk.kind);
  }

  private podAdded(pod: Pod): void {
    if (pod.metadata?.deletionTimestamp) {
      this.podDeleted(pod);
      return;
    }
    const rs = this.resolveRef(pod);
    if (rs) {
      this.expectations.creationObserved(this.key(rs));
      this.enqueue(rs);
      return;
    }
    if (!getControllerOf(pod)) for (const m of this.matchingReplicaSets(pod)) this.enqueue(m);
  }

  private podUpdated(old: Pod, pod: Pod): void {
    if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
    if (pod.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) {
      this.podDeleted(pod);
      return;
    }
    const oldRef = getControllerOf(old);
    const ref = getControllerOf(pod);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const oldRS = this.resolveRef(old);
      if (oldRS) this.enqueue(oldRS);
    }
    const rs = this.resolveRef(pod);
    if (rs) {
      this.enqueue(rs);
      const minReady = rs.spec?.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod))
        this.enqueueAfter(this.key(rs), minReady * 1000 + 1000);
      return;
    }
    if (!ref) for (const m of this.matchingReplicaSets(pod)) this.enqueue(m);
  }

  private podDeleted(pod: Pod): void {
    const rs = this.resolveRef(pod);
    if (!rs) return;
    this.expectations.deletionObserved(this.key(rs));
    this.enqueue(rs);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const rs = this.rsLister.namespace(namespace).get(name);
    if (!rs) {
      this.expectations.delete(key);
      return;
    }
    const needsSync = this.expectations.satisfiedExpectations(key);
    const selector = labelSelectorAsSelector(this.kind.selector(rs));
    const active = this.podLister.namespace(namespace).list().filter(isPodActive);
    const pods = await new ControllerRefManager<Pod>({
      controller: rs,
      controllerKind: { apiVersion: this.apiVersion, kind: this.kind.gvk.kind },
      selector,
      client: this.pods,
      canAdopt: recheckDeletionTimestamp(
        () => this.replicaSets.get(name, { namespace }),
        rs.metadata?.uid ?? '',
      ),
    }).claim(active);
    let manageError: { reason: 'FailedCreate' | 'FailedDelete'; message: string } | undefined;
    if (needsSync && !rs.metadata?.deletionTimestamp)
      manageError = await this.manageReplicas(pods, active, rs, key);
    const status = calculateReplicaSetStatus(rs, pods, manageError, this.ctx.now());
    let updated = rs;
    if (
      !sameReplicaSetStatus(rs.status, status) ||
      rs.metadata?.generation !== rs.status?.observedGeneration
    ) {
      updated = await updateStatusWithRetry(this.replicaSets, rs, status as T['status']);
    }
    if (manageError) throw new Error(manageError.message);
    const minReady = rs.spec?.minReadySeconds ?? 0;
    const st = updated.status;
    if (
      minReady > 0 &&
      st?.readyReplicas === rs.spec?.replicas &&
      st?.availableReplicas !== rs.spec?.replicas
    ) {
      this.enqueueAfter(key, minReady * 1000);
    }
  }

  private async manageReplicas(
    pods: Pod[],
    related: Pod[],
    rs: T,
    key: string,
  ): Promise<{ reason: 'FailedCreate' | 'FailedDelete'; message: string } | undefined> {
    const diff = pods.length - (rs.spec?.replicas ?? 1);
    if (diff < 0) {
      const count = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expectCreations(key, count);
      const { successes, error } = await slowStartBatch(count, SLOW_START_INITIAL_BATCH_SIZE, async () => {
        try {
          const pod = await this.pods.create(podFromTemplate(rs, rs.spec?.template, this.kind.gvk));
          this.ctx.recorder.event(
            this.involved(rs),
            'Normal',
            'SuccessfulCreate',
            `Created pod: ${pod.metadata?.name}`,
          );
        } catch (err) {
          this.ctx.recorder.event(
            this.involved(rs),
            'Warning',
            'FailedCreate',
            `Error creating: ${errorMessage(err)}`,
          );
          throw err;
        }
      });
      for (let i = successes; i < count; i++) this.expectations.creationObserved(key);
      return error === undefined ? undefined : { reason: 'FailedCreate', message: errorMessage(error) };
    }
    if (diff > 0) {
      const victims = podsToDelete(pods, related, Math.min(diff, BURST_REPLICAS));
      this.expectations.expectDeletions(key, victims.length);
      const results = await Promise.allSettled(
        victims.map(async (pod) => {
          try {
            await this.pods.delete(pod.metadata?.name ?? '', { namespace: pod.metadata?.namespace });
            this.ctx.recorder.event(
              this.involved(rs),
              'Normal',
              'SuccessfulDelete',
              `Deleted pod: ${pod.metadata?.name}`,
            );
          } catch (err) {
            this.expectations.deletionObserved(key);
            if (isNotFound(err)) return;
            this.ctx.recorder.event(
              this.involved(rs),
              'Warning',
              'FailedDelete',
              `Error deleting: ${errorMessage(err)}`,
            );
            throw err;
          }
        }),
      );
      const failed = results.find((r) => r.status === 'rejected');
      if (failed)
        return { reason: 'FailedDelete', message: errorMessage((failed as PromiseRejectedResult).reason) };
    }
    return undefined;
  }
}
