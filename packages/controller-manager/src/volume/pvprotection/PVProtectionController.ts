import { PersistentVolumeKind, PV_PROTECTION_FINALIZER, type PersistentVolume } from '@orch/api';
import {
  clientFor,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { QueueController, type ControllerContext } from '@orch/component-base';
import { isDeletionCandidate, needsFinalizer, withFinalizer } from '../protectionUtil';

/**
 * The pv-protection controller: removes the kubernetes.io/pv-protection finalizer from a volume
 * being deleted once it is not Bound to a claim (the binder keeps that phase), and adds the
 * finalizer to volumes that lack it.
 */
export class PVProtectionController extends QueueController {
  private readonly volumeLister: Lister<PersistentVolume>;
  private readonly volumes: TypedClient<PersistentVolume>;

  constructor(ctx: ControllerContext) {
    super('pv-protection', ctx);
    const volumeInformer = ctx.informers.informerFor<PersistentVolume>(PersistentVolumeKind);
    this.volumeLister = volumeInformer.lister();
    this.volumes = clientFor(ctx.client, PersistentVolumeKind);
    const changed = (pv: PersistentVolume): void => {
      if (needsFinalizer(pv, PV_PROTECTION_FINALIZER) || isDeletionCandidate(pv, PV_PROTECTION_FINALIZER))
        this.enqueue(pv);
    };
    volumeInformer.addEventHandler({ onAdd: changed, onUpdate: (_old, pv) => changed(pv) });
    this.run([volumeInformer as unknown as SharedIndexInformer<KubeObject>]);
  }

  protected async sync(name: string): Promise<void> {
    const volume = this.volumeLister.get(name);
    if (!volume) return;
    if (isDeletionCandidate(volume, PV_PROTECTION_FINALIZER)) {
      if (volume.status?.phase !== 'Bound') {
        await this.update(withFinalizer(volume, PV_PROTECTION_FINALIZER, false));
        this.ctx.logger.info(`pv-protection: removed the protection finalizer from volume ${name}`);
        return;
      }
      this.ctx.logger.info(`pv-protection: keeping volume ${name} because it is bound to a claim`);
    }
    if (needsFinalizer(volume, PV_PROTECTION_FINALIZER))
      await this.update(withFinalizer(volume, PV_PROTECTION_FINALIZER, true));
  }

  private async update(volume: PersistentVolume): Promise<void> {
    try {
      await this.volumes.update(volume);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
