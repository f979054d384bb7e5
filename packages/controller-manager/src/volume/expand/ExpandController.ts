import {
  nowTime,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  storageClassOf,
  storageQuantity,
  StorageClassKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
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
import { errorMessage, QueueController, type ControllerContext } from '@orch/component-base';
import { withKind } from '../../controller/withKind';
import { expandablePluginFor, expandedDeviceSize, type ExpandablePlugin } from './expandablePlugins';
import { markForFSResize, markResizeFinished, markResizeInProgress, needsExpansion } from './resizeStatus';

/** The event of a claim left to an expander outside the controller manager. */
export const EXTERNAL_EXPANDING = 'ExternalExpanding';
export const VOLUME_RESIZE_SUCCESSFUL = 'VolumeResizeSuccessful';
export const VOLUME_RESIZE_FAILED = 'VolumeResizeFailed';
const NO_EXPANDABLE_PLUGIN =
  "Ignoring the PVC: didn't find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.";

/**
 * The persistentvolume-expander controller (Kubernetes' expand controller): for a bound claim whose
 * storage request exceeds its capacity, the in-tree plugin of its volume, when one is expandable,
 * expands the volume: the claim gets the Resizing condition, the volume its new spec.capacity, then
 * the claim either its new status.capacity or, when the node must grow the file system, the
 * FileSystemResizePending condition. Volumes no in-tree plugin expands (host path, local, CSI
 * volumes, whose driver's external resizer does it) get an ExternalExpanding event and are left to
 * an external controller.
 */
export class ExpandController extends QueueController {
  private readonly claimLister: Lister<PersistentVolumeClaim>;
  private readonly classLister: Lister<StorageClass>;
  private readonly claims: TypedClient<PersistentVolumeClaim>;
  private readonly volumes: TypedClient<PersistentVolume>;

  constructor(ctx: ControllerContext) {
    super('persistentvolume-expander', ctx);
    const claimInformer = ctx.informers.informerFor<PersistentVolumeClaim>(PersistentVolumeClaimKind);
    const volumeInformer = ctx.informers.informerFor<PersistentVolume>(PersistentVolumeKind);
    const classInformer = ctx.informers.informerFor<StorageClass>(StorageClassKind);
    this.claimLister = claimInformer.lister();
    this.classLister = classInformer.lister();
    this.claims = clientFor(ctx.client, PersistentVolumeClaimKind);
    this.volumes = clientFor(ctx.client, PersistentVolumeKind);
    const consider = (claim: PersistentVolumeClaim): void => {
      if (needsExpansion(claim)) this.enqueue(claim);
    };
    claimInformer.addEventHandler({
      onAdd: consider,
      onUpdate: (old, claim) => {
        const before = storageQuantity(old.spec?.resources?.requests);
        const after = storageQuantity(claim.spec?.resources?.requests);
        if (before && after && after.cmp(before) > 0) consider(claim);
      },
    });
    this.run([claimInformer, volumeInformer, classInformer] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const claim = this.claimLister.namespace(namespace).get(name);
    if (!claim || !needsExpansion(claim)) return;
    const volumeName = claim.spec?.volumeName ?? '';
    let volume: PersistentVolume;
    try {
      volume = await this.volumes.get(volumeName);
    } catch (err) {
      throw new Error(`failed to get PV "${volumeName}": ${errorMessage(err)}`, { cause: err });
    }
    const ref = volume.spec?.claimRef;
    if (!ref || ref.namespace !== namespace || ref.uid !== claim.metadata?.uid)
      throw new Error(`persistent Volume is not bound to PVC being updated : ${key}`);
    const className = storageClassOf(claim);
    if (className === '') {
      this.ctx.logger.info(`volume expansion is disabled for PVC without StorageClasses: ${key}`);
      return;
    }
    const storageClass = this.classLister.get(className);
    if (!storageClass) {
      this.ctx.logger.info(
        `failed to expand PVC: ${key} with error: storageclass.storage.k8s.io "${className}" not found`,
      );
      return;
    }
    const plugin = expandablePluginFor(volume);
    if (!plugin) {
      this.event(claim, 'Normal', EXTERNAL_EXPANDING, NO_EXPANDABLE_PLUGIN);
      this.ctx.logger.info(
        `Ignoring the PVC "${key}" (uid: "${claim.metadata?.uid ?? ''}") : didn't find a plugin capable of expanding the volume; waiting for an external controller to process this PVC.`,
      );
      return;
    }
    await this.expand(key, claim, volume, plugin, storageClass.provisioner);
  }

  /** Kubernetes' expand: marks the resize in progress, expands the volume, records the outcome. */
  private async expand(
    key: string,
    claim: PersistentVolumeClaim,
    volume: PersistentVolume,
    plugin: ExpandablePlugin,
    resizer: string,
  ): Promise<void> {
    const now = nowTime(this.ctx.now);
    let current = await this.claims.updateStatus(markResizeInProgress(claim, resizer, now));
    let newSize = String(current.spec?.resources?.requests?.storage ?? '0');
    const requested = storageQuantity(current.spec?.resources?.requests);
    const volumeSize = storageQuantity(volume.spec?.capacity);
    if (requested && volumeSize && volumeSize.cmp(requested) < 0) {
      newSize = expandedDeviceSize(plugin, requested).toString();
      this.ctx.logger.info(`ExpandVolume succeeded for volume ${key}`);
      try {
        await this.volumes.update({
          ...volume,
          spec: { ...volume.spec, capacity: { ...volume.spec?.capacity, storage: newSize } },
        } as PersistentVolume);
      } catch (err) {
        const message = `error updating PV spec capacity for volume "${key}" with : ${errorMessage(err)}`;
        this.event(current, 'Warning', VOLUME_RESIZE_FAILED, message);
        throw new Error(message, { cause: err });
      }
      this.ctx.logger.info(`ExpandVolume.UpdatePV succeeded for volume ${key}`);
    }
    if (!plugin.requiresFSResize || current.spec?.volumeMode === 'Block') {
      try {
        current = await this.claims.updateStatus(markResizeFinished(current, newSize));
      } catch (err) {
        const message = `error marking pvc ${key} as resized : ${errorMessage(err)}`;
        this.event(current, 'Warning', VOLUME_RESIZE_FAILED, message);
        throw new Error(message, { cause: err });
      }
      this.event(current, 'Normal', VOLUME_RESIZE_SUCCESSFUL, `ExpandVolume succeeded for volume ${key}`);
      return;
    }
    try {
      await this.claims.updateStatus(markForFSResize(current, nowTime(this.ctx.now)));
    } catch (err) {
      if (isNotFound(err)) return;
      this.ctx.logger.warning(`error updating pvc ${key} condition for fs resize : ${errorMessage(err)}`);
    }
  }

  private event(claim: PersistentVolumeClaim, type: 'Normal' | 'Warning', reason: string, message: string) {
    this.ctx.recorder.event(withKind(claim, 'v1', 'PersistentVolumeClaim'), type, reason, message);
  }
}
