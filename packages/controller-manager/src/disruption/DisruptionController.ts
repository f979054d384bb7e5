import { isDeepStrictEqual } from 'node:util';
import {
  getControllerOf,
  labelSelectorAsSelector,
  nothingLabels,
  PodDisruptionBudgetKind,
  type Deployment,
  type Pod,
  type PodDisruptionBudget,
  type ReplicaSet,
  type ReplicationController,
  type StatefulSet,
} from '@orch/api';
import {
  clientFor,
  metaNamespaceKeyFunc,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { type ControllerContext, deletedObject, QueueController, errorMessage } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import {
  budgetStatus,
  countHealthyPods,
  disruptedPodMap,
  expectedPodCount,
  expectedScale,
  failSafeStatus,
} from './disruptionLogic';

type Scale = { uid: string; replicas: number } | undefined;

/** The pods a budget covers: a nil selector selects none, an empty one every pod of the namespace. */
function selectorOf(pdb: PodDisruptionBudget) {
  const selector = pdb.spec?.selector;
  if (!selector) return nothingLabels();
  try {
    return labelSelectorAsSelector(selector);
  } catch {
    return nothingLabels();
  }
}

/**
 * Keeps every PodDisruptionBudget's status (Kubernetes' disruption controller): the pods it expects
 * and the healthy ones it needs, the healthy ones there are, the disruptions the eviction subresource
 * may take now, the evictions still expected to complete, and the DisruptionAllowed condition.
 */
export class DisruptionController extends QueueController {
  private readonly pdbLister: Lister<PodDisruptionBudget>;
  private readonly podLister: Lister<Pod>;
  private readonly rsLister: Lister<ReplicaSet>;
  private readonly deploymentLister: Lister<Deployment>;
  private readonly rcLister: Lister<ReplicationController>;
  private readonly stsLister: Lister<StatefulSet>;
  private readonly pdbs: TypedClient<PodDisruptionBudget>;

  constructor(ctx: ControllerContext) {
    super('disruption', ctx);
    const pdbInformer = ctx.informers.informerFor<PodDisruptionBudget>(RESOURCES.poddisruptionbudgets);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const rsInformer = ctx.informers.informerFor<ReplicaSet>(RESOURCES.replicasets);
    const deploymentInformer = ctx.informers.informerFor<Deployment>(RESOURCES.deployments);
    const rcInformer = ctx.informers.informerFor<ReplicationController>(RESOURCES.replicationcontrollers);
    const stsInformer = ctx.informers.informerFor<StatefulSet>(RESOURCES.statefulsets);
    this.pdbLister = pdbInformer.lister();
    this.podLister = podInformer.lister();
    this.rsLister = rsInformer.lister();
    this.deploymentLister = deploymentInformer.lister();
    this.rcLister = rcInformer.lister();
    this.stsLister = stsInformer.lister();
    this.pdbs = clientFor(ctx.client, PodDisruptionBudgetKind);
    pdbInformer.addEventHandler({
      onAdd: (pdb) => this.enqueue(pdb),
      onUpdate: (_old, pdb) => this.enqueue(pdb),
      onDelete: (obj) => this.enqueue(deletedObject(obj)),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.enqueueBudgetsOf(pod),
      onUpdate: (old, pod) => {
        if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
        this.enqueueBudgetsOf(pod);
        if (!isDeepStrictEqual(old.metadata?.labels ?? {}, pod.metadata?.labels ?? {}))
          this.enqueueBudgetsOf(old);
      },
      onDelete: (obj) => this.enqueueBudgetsOf(deletedObject(obj)),
    });
    this.run([
      pdbInformer,
      podInformer,
      rsInformer,
      deploymentInformer,
      rcInformer,
      stsInformer,
    ] as SharedIndexInformer<KubeObject>[]);
  }

  private enqueueBudgetsOf(pod: Pod): void {
    for (const pdb of this.pdbLister.namespace(pod.metadata?.namespace ?? '').list()) {
      if (selectorOf(pdb).matches(pod.metadata?.labels ?? {})) this.queue.add(metaNamespaceKeyFunc(pdb));
    }
  }

  /**
   * The controller of a pod and the replicas it wants (Kubernetes' finders): a ReplicationController,
   * the Deployment of a ReplicaSet, a ReplicaSet of its own, or a StatefulSet; 'unmanaged' for a pod
   * without a controller.
   */
  private scaleOf(pod: Pod): Scale | 'unmanaged' {
    const ref = getControllerOf(pod);
    if (!ref) return 'unmanaged';
    const namespace = pod.metadata?.namespace ?? '';
    const found = <T extends { metadata?: { uid?: string } }>(
      obj: T | undefined,
      uid: string,
    ): T | undefined => (obj?.metadata?.uid === uid ? obj : undefined);
    const replicas = (obj: { metadata?: { uid?: string }; spec?: { replicas?: number } }): Scale => ({
      uid: obj.metadata?.uid ?? '',
      replicas: obj.spec?.replicas ?? 1,
    });
    switch (ref.kind) {
      case 'ReplicationController': {
        const rc = found(this.rcLister.namespace(namespace).get(ref.name), ref.uid);
        return rc && replicas(rc);
      }
      case 'ReplicaSet': {
        const rs = found(this.rsLister.namespace(namespace).get(ref.name), ref.uid);
        if (!rs) return undefined;
        const owner = getControllerOf(rs);
        if (owner?.kind !== 'Deployment') return replicas(rs);
        const deployment = found(this.deploymentLister.namespace(namespace).get(owner.name), owner.uid);
        return deployment && replicas(deployment);
      }
      case 'StatefulSet': {
        const sts = found(this.stsLister.namespace(namespace).get(ref.name), ref.uid);
        return sts && replicas(sts);
      }
    }
    return undefined;
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pdb = this.pdbLister.namespace(namespace).get(name);
    if (!pdb) return;
    const now = this.ctx.now?.() ?? Date.now();
    const pods = this.podLister.namespace(namespace).list(selectorOf(pdb));
    const recorded = withKind(pdb, 'policy/v1', 'PodDisruptionBudget');
    if (!pods.length) this.ctx.recorder.event(recorded, 'Normal', 'NoPods', 'No matching pods found');
    let status;
    let recheckAt: number | undefined;
    try {
      const counts = expectedPodCount(pdb, pods, () => expectedScale(pods, (pod) => this.scaleOf(pod)));
      if (counts.unmanagedPods.length) {
        this.ctx.recorder.event(
          recorded,
          'Warning',
          'UnmanagedPods',
          `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(pdb.spec?.selector ?? null)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
        );
      }
      const map = disruptedPodMap(pdb, pods, now);
      recheckAt = map.recheckAt;
      for (const pod of map.overdue) {
        this.ctx.recorder.event(
          withKind(pod, 'v1', 'Pod'),
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${namespace}/${name} to be deleted but it wasn't`,
        );
      }
      const currentHealthy = countHealthyPods(pods, map.disrupted);
      status = budgetStatus(pdb, { ...counts, currentHealthy }, map.disrupted, now);
    } catch (err) {
      const message = errorMessage(err);
      this.ctx.recorder.event(
        recorded,
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${message}`,
      );
      status = failSafeStatus(pdb, message, now);
    }
    if (recheckAt !== undefined) this.enqueueAfter(key, recheckAt - now);
    if (isDeepStrictEqual(pdb.status ?? {}, status)) return;
    // a stale copy conflicts: the informer brings the newer budget and the retry works from it
    await this.pdbs.updateStatus({ ...pdb, status });
  }
}
