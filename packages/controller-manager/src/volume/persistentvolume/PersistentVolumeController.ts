import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  StorageClassKind,
  storageClassOf,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
  volumeBoundToClaim,
} from '@orch/api';
import {
  clientFor,
  isAlreadyExists,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, QueueController, type ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../../controller/resources';
import { withKind } from '../../controller/withKind';
import { boundClaimAction, unboundClaimAction, volumeAction, type BinderEvent } from './binderActions';
import {
  hostPathVolume,
  provisionedVolumeName,
  provisionPlan,
  reclaimPlan,
  HOST_PATH_PLUGIN,
} from './volumePlugins';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_STORAGE_PROVISIONER,
  claimKey,
  claimRefKey,
} from './volumeMatching';

/** The flags of the binder. */
export const ENABLE_DYNAMIC_PROVISIONING_FLAG = 'enable-dynamic-provisioning';
export const ENABLE_HOSTPATH_PROVISIONER_FLAG = 'enable-hostpath-provisioner';

export interface PersistentVolumeBinderOptions {
  /** --enable-dynamic-provisioning (default true). */
  dynamicProvisioning: boolean;
  /** --enable-hostpath-provisioner (default false). */
  hostPathProvisioning: boolean;
}

const VOLUME_KEY = 'volume:';
const CLAIM_KEY = 'claim:';

type ClaimPhase = 'Pending' | 'Bound' | 'Lost';
type VolumePhase = 'Available' | 'Bound' | 'Released' | 'Failed';

/**
 * The persistent volume binder (Kubernetes' persistentvolume-binder, its PersistentVolumeController):
 * binds each claim to the smallest Available volume that satisfies it, or to the volume it or the
 * volume names (pre-binding); provisions a volume for a claim of a StorageClass (itself for
 * `kubernetes.io/host-path` with --enable-hostpath-provisioner, otherwise by annotating the claim
 * for an external provisioner), not before a node is selected for WaitForFirstConsumer classes;
 * keeps the phases of claims (Pending, Bound, Lost) and volumes (Available, Bound, Released,
 * Failed) and reclaims the volumes of deleted claims by their reclaim policy. Volumes and claims
 * are synced on every change and every --pvclaimbinder-sync-period.
 */
export class PersistentVolumeController extends QueueController {
  private readonly volumeLister: Lister<PersistentVolume>;
  private readonly claimLister: Lister<PersistentVolumeClaim>;
  private readonly classLister: Lister<StorageClass>;
  private readonly podLister: Lister<Pod>;
  private readonly nodeLister: Lister<Node>;
  private readonly volumes: TypedClient<PersistentVolume>;
  private readonly claims: TypedClient<PersistentVolumeClaim>;
  private readonly opts: PersistentVolumeBinderOptions;

  constructor(ctx: ControllerContext, opts?: PersistentVolumeBinderOptions) {
    super('persistentvolume-binder', ctx);
    this.opts = opts ?? {
      dynamicProvisioning: ctx.flags?.bool?.(ENABLE_DYNAMIC_PROVISIONING_FLAG) ?? true,
      hostPathProvisioning: ctx.flags?.bool?.(ENABLE_HOSTPATH_PROVISIONER_FLAG) ?? false,
    };
    const volumeInformer = ctx.informers.informerFor<PersistentVolume>(PersistentVolumeKind);
    const claimInformer = ctx.informers.informerFor<PersistentVolumeClaim>(PersistentVolumeClaimKind);
    const classInformer = ctx.informers.informerFor<StorageClass>(StorageClassKind);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    this.volumeLister = volumeInformer.lister();
    this.claimLister = claimInformer.lister();
    this.classLister = classInformer.lister();
    this.podLister = podInformer.lister();
    this.nodeLister = nodeInformer.lister();
    this.volumes = clientFor(ctx.client, PersistentVolumeKind);
    this.claims = clientFor(ctx.client, PersistentVolumeClaimKind);

    const enqueueVolume = (pv: PersistentVolume): void =>
      this.queue.add(VOLUME_KEY + (pv.metadata?.name ?? ''));
    const enqueueClaim = (key: string): void => this.queue.add(CLAIM_KEY + key);
    volumeInformer.addEventHandler({
      onAdd: enqueueVolume,
      onUpdate: (_old, pv) => enqueueVolume(pv),
      onDelete: (obj) => {
        // the claim of a deleted volume is lost
        const pv = deletedObject(obj);
        if (pv.spec?.claimRef) enqueueClaim(claimRefKey(pv));
      },
    });
    claimInformer.addEventHandler({
      onAdd: (pvc) => enqueueClaim(claimKey(pvc)),
      onUpdate: (_old, pvc) => enqueueClaim(claimKey(pvc)),
      onDelete: (obj) => {
        // the volume of a deleted claim is released
        const name = deletedObject(obj).spec?.volumeName;
        if (name) this.queue.add(VOLUME_KEY + name);
      },
    });
    if (ctx.syncPeriodMs) {
      this.every(ctx.syncPeriodMs, () => {
        for (const pv of this.volumeLister.list()) enqueueVolume(pv);
        for (const pvc of this.claimLister.list()) enqueueClaim(claimKey(pvc));
      });
    }
    this.run([
      volumeInformer,
      claimInformer,
      classInformer,
      podInformer,
      nodeInformer,
    ] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    if (key.startsWith(VOLUME_KEY)) {
      const volume = this.volumeLister.get(key.slice(VOLUME_KEY.length));
      if (volume) await this.syncVolume(volume);
      return;
    }
    const { namespace, name } = splitMetaNamespaceKey(key.slice(CLAIM_KEY.length));
    const claim = this.claimLister.namespace(namespace).get(name);
    if (!claim) return;
    if (claim.metadata?.annotations?.[ANN_BIND_COMPLETED] === undefined) await this.syncUnboundClaim(claim);
    else await this.syncBoundClaim(claim);
  }

  private async syncUnboundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const className = storageClassOf(claim);
    const storageClass = className ? this.classLister.get(className) : undefined;
    const delayBinding = storageClass?.volumeBindingMode === 'WaitForFirstConsumer';
    const action = unboundClaimAction(claim, {
      volumes: this.volumeLister.list(),
      delayBinding,
      unscheduledPods: delayBinding ? this.unscheduledPodsOf(claim) : [],
    });
    switch (action.kind) {
      case 'bind':
        return this.bind(action.volume, claim);
      case 'provision':
        return this.provision(claim, className, storageClass);
      case 'pending':
        if (action.event) this.claimEvent(claim, action.event);
        await this.updateClaimStatus(claim, 'Pending', undefined);
        return;
      case 'misbound':
        this.claimEvent(claim, action.event);
        throw new Error(action.error);
    }
  }

  private async syncBoundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const name = claim.spec?.volumeName;
    const action = boundClaimAction(claim, name ? this.volumeLister.get(name) : undefined);
    if (action.kind === 'bind') return this.bind(action.volume, claim);
    if (claim.status?.phase === 'Lost') return;
    const updated = await this.updateClaimStatus(claim, 'Lost', undefined);
    this.claimEvent(updated, action.event);
  }

  private async syncVolume(volume: PersistentVolume): Promise<void> {
    const action = volumeAction(volume, await this.claimOf(volume));
    switch (action.kind) {
      case 'phase':
        await this.updateVolumePhase(volume, action.phase, '');
        return;
      case 'syncClaim':
        this.queue.add(CLAIM_KEY + claimKey(action.claim));
        return;
      case 'modeMismatch':
        this.volumeEvent(volume, action.volumeEvent);
        this.claimEvent(action.claim, action.claimEvent);
        return;
      case 'unbind':
        return this.unbindVolume(volume);
      case 'release': {
        let released = volume;
        const phase = volume.status?.phase;
        if (phase !== 'Released' && phase !== 'Failed') {
          this.ctx.logger.info(
            `persistentvolume-binder: volume "${volume.metadata?.name}" is released and reclaim policy "${volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain'}" will be executed`,
          );
          released = await this.updateVolumePhase(volume, 'Released', '');
        }
        return this.reclaim(released);
      }
    }
  }

  /**
   * The claim a volume's claimRef names: from the cache, or (while the volume is not released yet)
   * from the API, so that a claim not in the cache yet does not release its volume.
   */
  private async claimOf(volume: PersistentVolume): Promise<PersistentVolumeClaim | undefined> {
    const ref = volume.spec?.claimRef;
    if (!ref?.uid) return undefined;
    const cached = this.claimLister.namespace(ref.namespace ?? '').get(ref.name ?? '');
    if (cached) return cached;
    const phase = volume.status?.phase;
    if (phase === 'Released' || phase === 'Failed') return undefined;
    try {
      return await this.claims.get(ref.name ?? '', { namespace: ref.namespace });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The names of the pods of the claim's namespace that use it and are not scheduled yet. */
  private unscheduledPodsOf(claim: PersistentVolumeClaim): string[] {
    return this.podLister
      .namespace(claim.metadata?.namespace ?? '')
      .list()
      .filter(
        (pod) =>
          !pod.spec?.nodeName &&
          (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata?.name),
      )
      .map((pod) => pod.metadata?.name ?? '')
      .sort();
  }

  /** Binds volume and claim both ways and marks both Bound; the volume first. */
  private async bind(volume: PersistentVolume, claim: PersistentVolumeClaim): Promise<void> {
    let pv = await this.bindVolumeToClaim(volume, claim);
    pv = await this.updateVolumePhase(pv, 'Bound', '');
    const pvc = await this.bindClaimToVolume(claim, pv);
    await this.updateClaimStatus(pvc, 'Bound', pv);
  }

  private async bindVolumeToClaim(
    volume: PersistentVolume,
    claim: PersistentVolumeClaim,
  ): Promise<PersistentVolume> {
    const bound = volumeBoundToClaim(volume, claim);
    if (!bound) return volume;
    this.ctx.logger.info(
      `persistentvolume-binder: claim "${claimKey(claim)}" bound to volume "${volume.metadata?.name}"`,
    );
    return this.volumes.update(bound);
  }

  private async bindClaimToVolume(
    claim: PersistentVolumeClaim,
    volume: PersistentVolume,
  ): Promise<PersistentVolumeClaim> {
    const name = volume.metadata?.name ?? '';
    const annotations = { ...(claim.metadata?.annotations ?? {}) };
    let dirty = false;
    if (claim.spec?.volumeName !== name) {
      if (annotations[ANN_BOUND_BY_CONTROLLER] === undefined) annotations[ANN_BOUND_BY_CONTROLLER] = 'yes';
      dirty = true;
    }
    if (annotations[ANN_BIND_COMPLETED] === undefined) {
      annotations[ANN_BIND_COMPLETED] = 'yes';
      dirty = true;
    }
    if (!dirty) return claim;
    return this.claims.update({
      ...claim,
      metadata: { ...claim.metadata, annotations },
      spec: { ...claim.spec, volumeName: name },
    } as PersistentVolumeClaim);
  }

  /** Undoes a binding: the binder's whole claimRef, or only the UID of a user's pre-binding. */
  private async unbindVolume(volume: PersistentVolume): Promise<void> {
    const annotations = { ...(volume.metadata?.annotations ?? {}) };
    const spec = { ...volume.spec };
    if (annotations[ANN_BOUND_BY_CONTROLLER] !== undefined) {
      delete spec.claimRef;
      delete annotations[ANN_BOUND_BY_CONTROLLER];
    } else if (spec.claimRef) {
      spec.claimRef = { ...spec.claimRef };
      delete spec.claimRef.uid;
    }
    const updated = await this.volumes.update({
      ...volume,
      metadata: { ...volume.metadata, annotations },
      spec,
    } as PersistentVolume);
    await this.updateVolumePhase(updated, 'Available', '');
  }

  /**
   * Writes the claim's phase, with the bound volume's access modes and capacity (none without). The
   * capacity is the volume's only as the claim becomes Bound: once it is, a smaller capacity than the
   * volume's is a file system not expanded yet (the expand controller's), left alone.
   */
  private async updateClaimStatus(
    claim: PersistentVolumeClaim,
    phase: ClaimPhase,
    volume: PersistentVolume | undefined,
  ): Promise<PersistentVolumeClaim> {
    const status = { ...(claim.status ?? {}) };
    if (volume) {
      status.accessModes = volume.spec?.accessModes;
      if (claim.status?.phase !== phase) {
        if (volume.spec?.capacity?.storage === undefined)
          throw new Error(`PersistentVolume "${volume.metadata?.name}" is without a storage capacity`);
        status.capacity = volume.spec.capacity;
      }
    } else {
      delete status.accessModes;
      delete status.capacity;
    }
    status.phase = phase;
    if (isDeepStrictEqual(status, claim.status ?? {})) return claim;
    const updated = await this.claims.updateStatus({ ...claim, status } as PersistentVolumeClaim);
    if (claim.status?.phase !== phase)
      this.ctx.logger.info(`persistentvolume-binder: claim "${claimKey(claim)}" entered phase "${phase}"`);
    return updated;
  }

  private async updateVolumePhase(
    volume: PersistentVolume,
    phase: VolumePhase,
    message: string,
  ): Promise<PersistentVolume> {
    if (volume.status?.phase === phase) return volume;
    const status = { ...(volume.status ?? {}), phase };
    if (message) status.message = message;
    else delete status.message;
    const updated = await this.volumes.updateStatus({ ...volume, status } as PersistentVolume);
    this.ctx.logger.info(
      `persistentvolume-binder: volume "${volume.metadata?.name}" entered phase "${phase}"`,
    );
    return updated;
  }

  /** Sets the volume's phase and sends the event, only when the phase changes. */
  private async updateVolumePhaseWithEvent(
    volume: PersistentVolume,
    phase: VolumePhase,
    event: BinderEvent,
  ): Promise<void> {
    if (volume.status?.phase === phase) return;
    const updated = await this.updateVolumePhase(volume, phase, event.message);
    this.volumeEvent(updated, event);
  }

  /** Carries out the reclaim policy of a released volume. */
  private async reclaim(volume: PersistentVolume): Promise<void> {
    const plan = reclaimPlan(volume);
    switch (plan.kind) {
      case 'retain':
      case 'external':
        return;
      case 'fail':
        return this.updateVolumePhaseWithEvent(volume, 'Failed', {
          type: 'Warning',
          reason: plan.reason,
          message: plan.message,
        });
      case 'delete':
        return this.deleteVolume(volume);
    }
  }

  /** Deletes a released volume once the API confirms it is still released. */
  private async deleteVolume(volume: PersistentVolume): Promise<void> {
    const name = volume.metadata?.name ?? '';
    let fresh: PersistentVolume;
    try {
      fresh = await this.volumes.get(name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!this.isVolumeReleased(fresh)) return;
    try {
      await this.volumes.delete(name, { preconditions: { uid: fresh.metadata?.uid } });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    this.ctx.logger.info(`persistentvolume-binder: volume "${name}" deleted`);
  }

  /** Whether a volume's claim is gone, or bound to another volume. */
  private isVolumeReleased(volume: PersistentVolume): boolean {
    const ref = volume.spec?.claimRef;
    if (!ref?.uid) return false;
    const claim = this.claimLister.namespace(ref.namespace ?? '').get(ref.name ?? '');
    if (claim && claim.metadata?.uid === ref.uid)
      return !!claim.spec?.volumeName && claim.spec.volumeName !== volume.metadata?.name;
    return true;
  }

  /** Provisions a volume for the claim, or asks an external provisioner to. */
  private async provision(
    claim: PersistentVolumeClaim,
    className: string,
    storageClass: StorageClass | undefined,
  ): Promise<void> {
    const plan = provisionPlan(className, storageClass, this.opts.dynamicProvisioning);
    switch (plan.kind) {
      case 'disabled':
        return;
      case 'failed':
        this.claimEvent(claim, { type: 'Warning', reason: 'ProvisioningFailed', message: plan.message });
        return;
      case 'external': {
        const provisioner = plan.storageClass.provisioner;
        const annotated = await this.setClaimProvisioner(claim, provisioner);
        this.claimEvent(annotated, {
          type: 'Normal',
          reason: 'ExternalProvisioning',
          message: `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
        });
        return;
      }
      case 'hostPath':
        return this.provisionHostPath(claim, plan.storageClass);
    }
  }

  private async provisionHostPath(claim: PersistentVolumeClaim, storageClass: StorageClass): Promise<void> {
    if (claim.spec?.dataSource) {
      this.claimEvent(claim, {
        type: 'Warning',
        reason: 'ProvisioningFailed',
        message: `plugin "${HOST_PATH_PLUGIN}" is not a CSI plugin. Only CSI plugin can provision a claim with a datasource`,
      });
      return;
    }
    const annotated = await this.setClaimProvisioner(claim, storageClass.provisioner);
    const name = provisionedVolumeName(annotated);
    // a volume provisioned by an earlier sync is bound once the cache has it
    if (this.volumeLister.get(name)) return;
    try {
      await this.volumes.get(name);
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const failed = (message: string): void =>
      this.claimEvent(annotated, { type: 'Warning', reason: 'ProvisioningFailed', message });
    if (!this.opts.hostPathProvisioning) {
      failed(`Failed to create provisioner: provisioning in volume plugin "${HOST_PATH_PLUGIN}" is disabled`);
      return;
    }
    const selectedNode = annotated.metadata?.annotations?.[ANN_SELECTED_NODE];
    if (selectedNode && !this.nodeLister.get(selectedNode)) {
      failed(`Failed to get target node: node "${selectedNode}" not found`);
      return;
    }
    const made = hostPathVolume(annotated, storageClass, randomUUID());
    if ('error' in made) {
      if (made.provisionFailed) await this.rescheduleProvisioning(annotated);
      failed(made.error);
      return;
    }
    try {
      await this.volumes.create(made.volume);
    } catch (err) {
      if (isAlreadyExists(err)) return;
      failed(
        `Error creating provisioned PV object for claim ${claimKey(annotated)}: ${err instanceof Error ? err.message : String(err)}. Deleting the volume.`,
      );
      throw err;
    }
    this.ctx.logger.info(
      `persistentvolume-binder: volume "${name}" provisioned for claim "${claimKey(annotated)}"`,
    );
    this.claimEvent(annotated, {
      type: 'Normal',
      reason: 'ProvisioningSucceeded',
      message: `Successfully provisioned volume ${name} using ${HOST_PATH_PLUGIN}`,
    });
  }

  /**
   * After the plugin failed to provision for a node the scheduler selected: drops the selected-node
   * annotation, so that the scheduler places the claim's pod again (Kubernetes' rescheduleProvisioning).
   * A failed update is left to the next sync.
   */
  private async rescheduleProvisioning(claim: PersistentVolumeClaim): Promise<void> {
    const annotations = claim.metadata?.annotations ?? {};
    if (annotations[ANN_SELECTED_NODE] === undefined) return;
    const { [ANN_SELECTED_NODE]: _selected, ...rest } = annotations;
    try {
      await this.claims.update({
        ...claim,
        metadata: { ...claim.metadata, annotations: rest },
      } as PersistentVolumeClaim);
    } catch (err) {
      this.ctx.logger.info(
        `persistentvolume-binder: failed to delete annotation ${ANN_SELECTED_NODE} of claim "${claimKey(claim)}": ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** Names the provisioner on the claim (both spellings), for external provisioners to act on. */
  private async setClaimProvisioner(
    claim: PersistentVolumeClaim,
    provisioner: string,
  ): Promise<PersistentVolumeClaim> {
    const annotations = claim.metadata?.annotations ?? {};
    if (
      annotations[ANN_STORAGE_PROVISIONER] === provisioner &&
      annotations[ANN_BETA_STORAGE_PROVISIONER] === provisioner
    )
      return claim;
    return this.claims.update({
      ...claim,
      metadata: {
        ...claim.metadata,
        annotations: {
          ...annotations,
          [ANN_STORAGE_PROVISIONER]: provisioner,
          [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
        },
      },
    } as PersistentVolumeClaim);
  }

  private claimEvent(claim: PersistentVolumeClaim, e: BinderEvent): void {
    this.ctx.recorder.event(withKind(claim, 'v1', 'PersistentVolumeClaim'), e.type, e.reason, e.message);
  }

  private volumeEvent(volume: PersistentVolume, e: BinderEvent): void {
    this.ctx.recorder.event(withKind(volume, 'v1', 'PersistentVolume'), e.type, e.reason, e.message);
  }
}
