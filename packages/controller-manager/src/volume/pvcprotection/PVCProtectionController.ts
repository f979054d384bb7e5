import {
  isPodTerminal,
  PersistentVolumeClaimKind,
  PodKind,
  PVC_PROTECTION_FINALIZER,
  type PersistentVolumeClaim,
  type Pod,
} from '@orch/api';
import {
  clientFor,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, QueueController, type ControllerContext } from '@orch/component-base';

import { RESOURCES } from '../../controller/resources';
import { isDeletionCandidate, needsFinalizer, withFinalizer } from '../protectionUtil';
import { podClaimNames, podUsesClaim } from './podUsesClaim';

/**
 * The pvc-protection controller: removes the kubernetes.io/pvc-protection finalizer from a claim
 * being deleted once no scheduled pod uses it (looking in the pod cache, then, to be sure, at a
 * live list of the namespace's pods), and adds the finalizer to claims that lack it.
 */
export class PVCProtectionController extends QueueController {
  private readonly claimLister: Lister<PersistentVolumeClaim>;
  private readonly podLister: Lister<Pod>;
  private readonly claims: TypedClient<PersistentVolumeClaim>;
  private readonly pods: TypedClient<Pod>;

  constructor(ctx: ControllerContext) {
    super('pvc-protection', ctx);
    const claimInformer = ctx.informers.informerFor<PersistentVolumeClaim>(PersistentVolumeClaimKind);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    this.claimLister = claimInformer.lister();
    this.podLister = podInformer.lister();
    this.claims = clientFor(ctx.client, PersistentVolumeClaimKind);
    this.pods = clientFor(ctx.client, PodKind);
    const claimChanged = (pvc: PersistentVolumeClaim): void => {
      if (needsFinalizer(pvc, PVC_PROTECTION_FINALIZER) || isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER))
        this.enqueue(pvc);
    };
    claimInformer.addEventHandler({ onAdd: claimChanged, onUpdate: (_old, pvc) => claimChanged(pvc) });
    // a pod that is gone, finished or unscheduled may let its claims go
    const podChanged = (pod: Pod, deleted: boolean): void => {
      if (!deleted && !isPodTerminal(pod) && pod.spec?.nodeName) return;
      for (const name of podClaimNames(pod)) this.queue.add(`${pod.metadata?.namespace ?? ''}/${name}`);
    };
    podInformer.addEventHandler({
      onAdd: (pod) => podChanged(pod, false),
      onUpdate: (old, pod) => {
        podChanged(pod, false);
        // a pod replaced by another of the same name, or moved off a node
        if (old.metadata?.uid !== pod.metadata?.uid || old.spec?.nodeName !== pod.spec?.nodeName)
          podChanged(old, true);
      },
      onDelete: (obj) => podChanged(deletedObject(obj), true),
    });
    this.run([claimInformer, podInformer] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const claim = this.claimLister.namespace(namespace).get(name);
    if (!claim) return;
    if (isDeletionCandidate(claim, PVC_PROTECTION_FINALIZER)) {
      if (!(await this.isBeingUsed(claim))) {
        await this.update(withFinalizer(claim, PVC_PROTECTION_FINALIZER, false));
        this.ctx.logger.info(`pvc-protection: removed the protection finalizer from claim ${key}`);
        return;
      }
      this.ctx.logger.info(`pvc-protection: keeping claim ${key} because it is being used`);
    }
    if (needsFinalizer(claim, PVC_PROTECTION_FINALIZER))
      await this.update(withFinalizer(claim, PVC_PROTECTION_FINALIZER, true));
  }

  private async update(claim: PersistentVolumeClaim): Promise<void> {
    try {
      await this.claims.update(claim);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Whether a pod uses the claim: in the cache, or else in a live list (the cache may lag). */
  private async isBeingUsed(claim: PersistentVolumeClaim): Promise<boolean> {
    const namespace = claim.metadata?.namespace ?? '';
    if (
      this.podLister
        .namespace(namespace)
        .list()
        .some((pod) => podUsesClaim(pod, claim))
    )
      return true;
    const live = await this.pods.list({ namespace });
    return live.items.some((pod) =>
      podUsesClaim({ ...pod, metadata: { ...pod.metadata, namespace } }, claim),
    );
  }
}
