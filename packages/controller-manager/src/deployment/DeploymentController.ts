import {
  isPodTerminal,
  DeploymentKind,
  getControllerOf,
  labelSelectorAsSelector,
  newControllerRef,
  parseTime,
  ReplicaSetKind,
  type Deployment,
  type Pod,
  type ReplicaSet,
} from '@orch/api';
import {
  ControllerRefManager,
  recheckDeletionTimestamp,
  clientFor,
  isAlreadyExists,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { errorMessage, type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import {
  deploymentComplete,
  deploymentProgressing,
  desiredReplicas,
  equalIgnoreHash,
  findNewReplicaSet,
  isScalingEvent,
  maxRevision,
  maxSurge,
  newRSNewReplicas,
  replicasOf,
  REVISION_ANNOTATION,
  revisionOf,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  replicaSetsToCleanup,
  actualReplicas,
  activeReplicaSets,
  type DeploymentCondition,
  type DeploymentStatus,
} from './deploymentUtil';
import {
  calculateStatus,
  deploymentTimedOut,
  getCondition,
  hasProgressDeadline,
  newCondition,
  Reasons,
  removeCondition,
  sameStatus,
  setCondition,
} from './deploymentStatus';
import { computeHash, POD_TEMPLATE_HASH_LABEL } from './podTemplateHash';
import { rollingUpdateStep, scalePlan, type ScaleAction } from './rolloutPlan';

export const DEPLOYMENT_GVK = { group: 'apps', version: 'v1', kind: 'Deployment' };

interface ReplicaSets {
  newRS: ReplicaSet | undefined;
  oldRSs: ReplicaSet[];
}

/** Rolls Deployments out through ReplicaSets: RollingUpdate, Recreate, pause, scaling, history, status. */
export class DeploymentController extends QueueController {
  private readonly dLister: Lister<Deployment>;
  private readonly rsLister: Lister<ReplicaSet>;
  private readonly podLister: Lister<Pod>;
  private readonly deployments: TypedClient<Deployment>;
  private readonly replicaSets: TypedClient<ReplicaSet>;

  constructor(ctx: ControllerContext) {
    super('deployment', ctx);
    const dInformer = ctx.informers.informerFor<Deployment>(RESOURCES.deployments);
    const rsInformer = ctx.informers.informerFor<ReplicaSet>(RESOURCES.replicasets);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    this.dLister = dInformer.lister();
    this.rsLister = rsInformer.lister();
    this.podLister = podInformer.lister();
    this.deployments = clientFor(ctx.client, DeploymentKind);
    this.replicaSets = clientFor(ctx.client, ReplicaSetKind);
    dInformer.addEventHandler(
      {
        onAdd: (d) => this.enqueue(d),
        onUpdate: (_o, d) => this.enqueue(d),
        onDelete: (d) => this.enqueue(d),
      },
      ctx.syncPeriodMs || undefined,
    );
    rsInformer.addEventHandler({
      onAdd: (rs) => this.replicaSetChanged(rs),
      onUpdate: (old, rs) => {
        if (getControllerOf(old)?.uid !== getControllerOf(rs)?.uid) this.replicaSetChanged(old);
        this.replicaSetChanged(rs);
      },
      onDelete: (obj) => this.replicaSetChanged(deletedObject(obj)),
    });
    podInformer.addEventHandler({ onDelete: (obj) => this.podDeleted(deletedObject(obj)) });
    this.run([dInformer, rsInformer, podInformer] as SharedIndexInformer<KubeObject>[]);
  }

  private ownerOf(rs: ReplicaSet): Deployment | undefined {
    const ref = getControllerOf(rs);
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = this.dLister.namespace(rs.metadata?.namespace ?? '').get(ref.name);
    return d?.metadata?.uid === ref.uid ? d : undefined;
  }

  private replicaSetChanged(rs: ReplicaSet): void {
    const owner = this.ownerOf(rs);
    if (owner) {
      this.enqueue(owner);
      return;
    }
    if (getControllerOf(rs)) return;
    const labels = rs.metadata?.labels ?? {};
    for (const d of this.dLister.namespace(rs.metadata?.namespace ?? '').list()) {
      const sel = safeSelector(d);
      if (sel && !sel.empty() && sel.matches(labels)) this.enqueue(d);
    }
  }

  /** A deleted pod may unblock a Recreate rollout waiting for old pods to go. */
  private podDeleted(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = this.rsLister.namespace(pod.metadata?.namespace ?? '').get(ref.name);
    if (!rs || rs.metadata?.uid !== ref.uid) return;
    const d = this.ownerOf(rs);
    if (d && d.spec?.strategy?.type === 'Recreate') this.enqueue(d);
  }

  private event(d: Deployment, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.recorder.event(withKind(d, 'apps/v1', 'Deployment'), type, reason, message);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.dLister.namespace(namespace).get(name);
    if (!cached) return;
    let d = structuredClone(cached);
    const selector = safeSelector(d);
    if (!selector || selector.empty()) {
      this.event(
        d,
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        await this.deployments.updateStatus({
          ...d,
          status: { ...d.status, observedGeneration: d.metadata?.generation ?? 0 },
        });
      }
      return;
    }
    const rsList = await new ControllerRefManager<ReplicaSet>({
      controller: d,
      controllerKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
      selector,
      client: this.replicaSets,
      canAdopt: recheckDeletionTimestamp(
        () => this.deployments.get(name, { namespace }),
        d.metadata?.uid ?? '',
      ),
    }).claim(this.rsLister.namespace(namespace).list());
    if (d.metadata?.deletionTimestamp) {
      await this.syncStatusOnly(d, rsList);
      return;
    }
    d = await this.checkPausedConditions(d);
    if (d.spec?.paused) {
      await this.scaleSync(d, rsList);
      return;
    }
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    // Continue with the ReplicaSets as just written (a second write from the cache copy would conflict).
    const synced = newRS ? [...oldRSs, newRS] : oldRSs;
    if (isScalingEvent(d, synced)) {
      await this.scaleSync(d, synced);
      return;
    }
    if (d.spec?.strategy?.type === 'Recreate') await this.rolloutRecreate(d, synced);
    else await this.rolloutRolling(d, synced);
  }

  private async checkPausedConditions(d: Deployment): Promise<Deployment> {
    if (!hasProgressDeadline(d)) return d;
    const cond = getCondition(d.status, 'Progressing');
    if (cond?.reason === Reasons.TimedOut) return d;
    const pausedCond = cond?.reason === Reasons.Paused;
    const status: DeploymentStatus = structuredClone(d.status ?? {});
    const now = this.ctx.now();
    if (d.spec?.paused && !pausedCond) {
      setCondition(
        status,
        newCondition('Progressing', 'Unknown', Reasons.Paused, 'Deployment is paused', now),
      );
    } else if (!d.spec?.paused && pausedCond) {
      setCondition(
        status,
        newCondition('Progressing', 'Unknown', Reasons.Resumed, 'Deployment is resumed', now),
      );
    } else {
      return d;
    }
    return this.deployments.updateStatus({ ...d, status });
  }

  /** The new ReplicaSet (created when asked and missing) and the old ones, revisions in sync. */
  private async getAllReplicaSetsAndSyncRevision(
    d: Deployment,
    rsList: ReplicaSet[],
    create: boolean,
  ): Promise<ReplicaSets> {
    const found = findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== found);
    const newRS = await this.getNewReplicaSet(d, oldRSs, found, create);
    return { newRS, oldRSs };
  }

  private async getNewReplicaSet(
    d: Deployment,
    oldRSs: ReplicaSet[],
    existing: ReplicaSet | undefined,
    create: boolean,
  ): Promise<ReplicaSet | undefined> {
    const newRevision = maxRevision(oldRSs) + 1;
    const now = this.ctx.now();
    if (existing) {
      let rs = structuredClone(existing);
      const annotationsUpdated = setNewReplicaSetAnnotations(d, rs, newRevision, true);
      const minReadyChanged = (rs.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
      if (annotationsUpdated || minReadyChanged) {
        rs.spec = { ...rs.spec!, minReadySeconds: d.spec?.minReadySeconds ?? 0 };
        rs = await this.replicaSets.update(rs);
      }
      const cond =
        hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')
          ? newCondition(
              'Progressing',
              'True',
              Reasons.FoundNewReplicaSet,
              `Found new replica set "${rs.metadata?.name}"`,
              now,
            )
          : undefined;
      await this.syncRevisionAndCondition(d, String(revisionOf(rs)), cond);
      return rs;
    }
    if (!create) return undefined;

    const collisionCount = d.status?.collisionCount;
    const template = structuredClone(d.spec!.template);
    const hash = computeHash(d.spec!.template, collisionCount);
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash },
    };
    const selector = structuredClone(d.spec!.selector);
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata?.name}-${hash}`,
        namespace: d.metadata?.namespace,
        ownerReferences: [newControllerRef(d, DEPLOYMENT_GVK)],
        labels: template.metadata.labels,
      },
      spec: { replicas: 0, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
    } as ReplicaSet;
    const replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
    rs.spec!.replicas = replicas;
    setNewReplicaSetAnnotations(d, rs, newRevision, false);

    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      created = await this.replicaSets.create(rs);
    } catch (err) {
      if (isAlreadyExists(err)) {
        const clash =
          this.rsLister.namespace(d.metadata?.namespace ?? '').get(rs.metadata!.name!) ??
          (await this.replicaSets.get(rs.metadata!.name!, { namespace: d.metadata?.namespace }));
        if (
          getControllerOf(clash)?.uid === d.metadata?.uid &&
          equalIgnoreHash(clash.spec?.template, d.spec?.template)
        ) {
          created = clash;
          alreadyExists = true;
        } else {
          const status = structuredClone(d.status ?? {});
          status.collisionCount = (status.collisionCount ?? 0) + 1;
          await this.deployments.updateStatus({ ...d, status });
          throw new Error(
            `found a hash collision for deployment "${d.metadata?.name}" - bumping collisionCount to ${status.collisionCount} to resolve it`,
            { cause: err },
          );
        }
      } else {
        const message = `Failed to create new replica set "${rs.metadata?.name}": ${errorMessage(err)}`;
        const status = structuredClone(d.status ?? {});
        if (hasProgressDeadline(d))
          setCondition(status, newCondition('Progressing', 'False', Reasons.FailedRSCreate, message, now));
        this.event(d, 'Warning', 'FailedCreate', message);
        await this.deployments.updateStatus({ ...d, status });
        throw err;
      }
    }
    if (!alreadyExists && replicas > 0) {
      this.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${created.metadata?.name} to ${replicas}`,
      );
    }
    const cond =
      !alreadyExists && hasProgressDeadline(d)
        ? newCondition(
            'Progressing',
            'True',
            Reasons.NewReplicaSetCreated,
            `Created new replica set "${created.metadata?.name}"`,
            now,
          )
        : undefined;
    await this.syncRevisionAndCondition(d, String(newRevision), cond);
    return created;
  }

  /** Records the revision on the deployment and sets a Progressing condition; `d` is updated in place. */
  private async syncRevisionAndCondition(
    d: Deployment,
    revision: string,
    cond: DeploymentCondition | undefined,
  ): Promise<void> {
    if (d.metadata?.annotations?.[REVISION_ANNOTATION] !== revision) {
      const patched = await this.deployments.patch(
        d.metadata?.name ?? '',
        'merge',
        { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } },
        { namespace: d.metadata?.namespace },
      );
      d.metadata = patched.metadata;
    }
    if (cond) {
      const status = structuredClone(d.status ?? {});
      setCondition(status, cond);
      const updated = await this.deployments.updateStatus({ ...d, status });
      d.metadata = updated.metadata;
      d.status = updated.status;
    }
  }

  /** Resizes a ReplicaSet and stamps the replicas annotations (scaleReplicaSet). */
  private async scaleReplicaSet(rs: ReplicaSet, replicas: number, d: Deployment): Promise<ReplicaSet> {
    const copy = structuredClone(rs);
    const sizeChanged = replicasOf(rs) !== replicas;
    const annotationsChanged = setReplicasAnnotations(
      copy,
      desiredReplicas(d),
      desiredReplicas(d) + maxSurge(d),
    );
    if (!sizeChanged && !annotationsChanged) return rs;
    copy.spec = { ...copy.spec!, replicas };
    const updated = await this.replicaSets.update(copy);
    if (sizeChanged) {
      const direction = replicasOf(rs) < replicas ? 'up' : 'down';
      this.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${direction} replica set ${rs.metadata?.name} to ${replicas}`,
      );
    }
    return updated;
  }

  /** Applies resizes; returns the ReplicaSets with their new values and whether any size changed. */
  private async applyScale(
    actions: ScaleAction[],
    d: Deployment,
    rss: ReplicaSet[],
  ): Promise<{ rss: ReplicaSet[]; scaled: boolean }> {
    let scaled = false;
    const result = [...rss];
    for (const a of actions) {
      const i = result.findIndex((rs) => rs.metadata?.name === a.rs.metadata?.name);
      const current = i >= 0 ? result[i]! : a.rs;
      if (replicasOf(current) !== a.replicas) scaled = true;
      const updated = await this.scaleReplicaSet(current, a.replicas, d);
      if (i >= 0) result[i] = updated;
    }
    return { rss: result, scaled };
  }

  private async rolloutRolling(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, true);
    const step = rollingUpdateStep(newRS!, oldRSs, d);
    const { rss, scaled } = await this.applyScale(step, d, [...oldRSs, newRS!]);
    const newSet = rss[rss.length - 1]!;
    const olds = rss.slice(0, -1);
    if (!scaled && deploymentComplete(d, d.status ?? {})) await this.cleanupDeployment(olds, d);
    await this.syncRolloutStatus(rss, newSet, d);
  }

  private async rolloutRecreate(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    let { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    const downs = activeReplicaSets(oldRSs).map((rs) => ({ rs, replicas: 0 }));
    if (downs.length > 0) {
      const { rss } = await this.applyScale(downs, d, oldRSs);
      await this.syncRolloutStatus([...rss, ...(newRS ? [newRS] : [])], newRS, d);
      return;
    }
    if (this.oldPodsRunning(newRS, oldRSs)) {
      await this.syncRolloutStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS, d);
      return;
    }
    if (!newRS) ({ newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, true));
    newRS = await this.scaleReplicaSet(newRS!, desiredReplicas(d), d);
    if (deploymentComplete(d, d.status ?? {})) await this.cleanupDeployment(oldRSs, d);
    await this.syncRolloutStatus([...oldRSs, newRS], newRS, d);
  }

  /** Whether pods of old ReplicaSets still run (oldPodsRunning). */
  private oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): boolean {
    if (actualReplicas(oldRSs) > 0) return true;
    const oldUIDs = new Set(oldRSs.map((rs) => rs.metadata?.uid));
    for (const pod of this.podLister
      .namespace(newRS?.metadata?.namespace ?? oldRSs[0]?.metadata?.namespace ?? '')
      .list()) {
      const ref = getControllerOf(pod);
      if (!ref || !oldUIDs.has(ref.uid) || ref.uid === newRS?.metadata?.uid) continue;
      if (!isPodTerminal(pod)) return true;
    }
    return false;
  }

  /** Scaling and paused deployments: resize proportionally, then the status (sync). */
  private async scaleSync(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    const all = [...oldRSs, ...(newRS ? [newRS] : [])];
    const { rss } = await this.applyScale(scalePlan(d, newRS, oldRSs), d, all);
    const updatedNew = newRS ? rss[rss.length - 1] : undefined;
    const olds = newRS ? rss.slice(0, -1) : rss;
    if (d.spec?.paused) await this.cleanupDeployment(olds, d);
    await this.syncDeploymentStatus(rss, updatedNew, d);
  }

  private async syncStatusOnly(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(d, rsList, false);
    await this.syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS, d);
  }

  private async syncDeploymentStatus(
    all: ReplicaSet[],
    newRS: ReplicaSet | undefined,
    d: Deployment,
  ): Promise<void> {
    const status = calculateStatus(all, newRS, d, this.ctx.now());
    if (sameStatus(d.status, status)) return;
    await this.deployments.updateStatus({ ...d, status });
  }

  /** Deletes the oldest empty ReplicaSets beyond revisionHistoryLimit (cleanupDeployment). */
  private async cleanupDeployment(oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
    for (const rs of replicaSetsToCleanup(oldRSs, d.spec?.revisionHistoryLimit)) {
      try {
        await this.replicaSets.delete(rs.metadata?.name ?? '', { namespace: rs.metadata?.namespace });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /** Status with the Progressing condition and the progress deadline (syncRolloutStatus). */
  private async syncRolloutStatus(
    all: ReplicaSet[],
    newRS: ReplicaSet | undefined,
    d: Deployment,
  ): Promise<void> {
    const now = this.ctx.now();
    const status = calculateStatus(all, newRS, d, now);
    if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
    const current = getCondition(status, 'Progressing');
    const complete = status.replicas === status.updatedReplicas && current?.reason === Reasons.NewRSAvailable;
    if (hasProgressDeadline(d) && !complete) {
      const subject = newRS ? `ReplicaSet "${newRS.metadata?.name}"` : `Deployment "${d.metadata?.name}"`;
      if (deploymentComplete(d, status)) {
        setCondition(
          status,
          newCondition(
            'Progressing',
            'True',
            Reasons.NewRSAvailable,
            `${subject} has successfully progressed.`,
            now,
          ),
        );
      } else if (deploymentProgressing(d, status)) {
        const cond = newCondition(
          'Progressing',
          'True',
          Reasons.ReplicaSetUpdated,
          `${subject} is progressing.`,
          now,
        );
        if (current?.status === 'True') cond.lastTransitionTime = current.lastTransitionTime;
        removeCondition(status, 'Progressing');
        setCondition(status, cond);
      } else if (deploymentTimedOut(d, status, now)) {
        setCondition(
          status,
          newCondition(
            'Progressing',
            'False',
            Reasons.TimedOut,
            `${subject} has timed out progressing.`,
            now,
          ),
        );
      }
    }
    const failure = all.flatMap((rs) => rs.status?.conditions ?? []).find((c) => c.type === 'ReplicaFailure');
    if (failure) {
      setCondition(status, {
        type: 'ReplicaFailure',
        status: failure.status ?? 'True',
        lastUpdateTime: failure.lastTransitionTime,
        lastTransitionTime: failure.lastTransitionTime,
        reason: failure.reason,
        message: failure.message,
      });
    } else {
      removeCondition(status, 'ReplicaFailure');
    }
    if (sameStatus(d.status, status)) {
      this.requeueStuckDeployment(d, status, now);
      return;
    }
    await this.deployments.updateStatus({ ...d, status });
  }

  /** Checks again when the progress deadline of a stuck rollout passes. */
  private requeueStuckDeployment(d: Deployment, status: DeploymentStatus, now: number): void {
    const cond = getCondition(status, 'Progressing');
    if (!hasProgressDeadline(d) || !cond || cond.reason === Reasons.TimedOut || deploymentComplete(d, status))
      return;
    if (!cond.lastUpdateTime) return;
    const after = parseTime(cond.lastUpdateTime) + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - now;
    const key = `${d.metadata?.namespace}/${d.metadata?.name}`;
    if (after < 1000) this.queue.addRateLimited(key);
    else this.enqueueAfter(key, after);
  }
}

function safeSelector(d: Deployment): ReturnType<typeof labelSelectorAsSelector> | undefined {
  try {
    return labelSelectorAsSelector(d.spec?.selector);
  } catch {
    return undefined;
  }
}
