import {
  csiUniqueVolumeName,
  NodeKind,
  parseCSIUniqueVolumeName,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  VolumeAttachmentKind,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type VolumeAttachment,
} from '@orch/api';
import {
  clientFor,
  isAlreadyExists,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { deletedObject, QueueController, type ControllerContext } from '@orch/component-base';
import { podsByNode } from '../../controller/podsByNode';
import { RESOURCES } from '../../controller/resources';
import { withKind } from '../../controller/withKind';
import { podClaimNames } from '../pvcprotection/podUsesClaim';
import {
  desiredAttachments,
  isAttachDetachManaged,
  volumeAttachmentName,
  type DesiredAttachment,
} from './desiredAttachments';

/** How long an attach waits for the CSI driver's external attacher before it reports a failure. */
export const CSI_ATTACH_TIMEOUT_MS = 2 * 60_000;
/** How long a volume no pod needs waits to be unmounted (to leave volumesInUse) before it is detached anyway. */
export const MAX_WAIT_FOR_UNMOUNT_MS = 6 * 60_000;

type AttachedVolume = NonNullable<NonNullable<Node['status']>['volumesAttached']>[number];

export interface AttachDetachOptions {
  /** --attach-detach-reconcile-sync-period: how often every node is checked again. */
  reconcileSyncPeriodMs: number;
  /** --disable-attach-detach-reconcile-sync: no periodic check. */
  disableReconcileSync: boolean;
}

/**
 * Kubernetes' attach/detach controller, for CSI volumes. For every node whose kubelet leaves
 * attaching to the controller (annotation volumes.kubernetes.io/controller-managed-attach-detach),
 * it attaches the CSI persistent volumes of the node's pods by creating their VolumeAttachments
 * (which the driver's external attacher acts on), reports each volume in the node's
 * status.volumesAttached once its attachment says attached, and detaches the volumes no pod needs
 * any more: out of volumesAttached first, then the VolumeAttachment deleted, after the node has
 * unmounted them (left volumesInUse) or after six minutes. Attach failures and successes are events
 * on the pods.
 */
export class AttachDetachController extends QueueController {
  private readonly nodeLister: Lister<Node>;
  private readonly claimLister: Lister<PersistentVolumeClaim>;
  private readonly volumeLister: Lister<PersistentVolume>;
  private readonly attachmentLister: Lister<VolumeAttachment>;
  private readonly podsOnNode: (nodeName: string) => Pod[];
  private readonly podLister: Lister<Pod>;
  private readonly nodes: TypedClient<Node>;
  private readonly attachments: TypedClient<VolumeAttachment>;
  /** Per VolumeAttachment waiting to be attached: the failure last reported on its pods. */
  private readonly reportedFailure = new Map<string, string>();
  /** Per node and volume no pod needs but still mounted: since when. */
  private readonly unneededSince = new Map<string, number>();

  constructor(ctx: ControllerContext, options: AttachDetachOptions) {
    super('attachdetach', ctx);
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    const claimInformer = ctx.informers.informerFor<PersistentVolumeClaim>(PersistentVolumeClaimKind);
    const volumeInformer = ctx.informers.informerFor<PersistentVolume>(PersistentVolumeKind);
    const attachmentInformer = ctx.informers.informerFor<VolumeAttachment>(VolumeAttachmentKind);
    this.nodeLister = nodeInformer.lister();
    this.podLister = podInformer.lister();
    this.podsOnNode = podsByNode(podInformer);
    this.claimLister = claimInformer.lister();
    this.volumeLister = volumeInformer.lister();
    this.attachmentLister = attachmentInformer.lister();
    this.nodes = clientFor(ctx.client, NodeKind);
    this.attachments = clientFor(ctx.client, VolumeAttachmentKind);

    const node = (name: string | undefined): void => {
      if (name) this.queue.add(name);
    };
    nodeInformer.addEventHandler({
      onAdd: (n) => node(n.metadata?.name),
      onUpdate: (old, n) => {
        // the node's own heartbeats change neither what it runs nor what it mounts
        if (
          old.metadata?.annotations !== n.metadata?.annotations ||
          JSON.stringify(old.status?.volumesInUse) !== JSON.stringify(n.status?.volumesInUse) ||
          JSON.stringify(old.status?.volumesAttached) !== JSON.stringify(n.status?.volumesAttached)
        )
          node(n.metadata?.name);
      },
      onDelete: (n) => node(deletedObject(n).metadata?.name),
    });
    podInformer.addEventHandler({
      onAdd: (p) => node(p.spec?.nodeName),
      onUpdate: (old, p) => {
        node(p.spec?.nodeName);
        if (old.spec?.nodeName !== p.spec?.nodeName) node(old.spec?.nodeName);
      },
      onDelete: (p) => node(deletedObject(p).spec?.nodeName),
    });
    const claimChanged = (claim: PersistentVolumeClaim): void => {
      const namespace = claim.metadata?.namespace ?? '';
      const name = claim.metadata?.name ?? '';
      for (const pod of this.podLister.namespace(namespace).list())
        if (podClaimNames(pod).includes(name)) node(pod.spec?.nodeName);
    };
    claimInformer.addEventHandler({ onAdd: claimChanged, onUpdate: (_old, c) => claimChanged(c) });
    const volumeChanged = (pv: PersistentVolume): void => {
      const ref = pv.spec?.claimRef;
      const claim = ref?.name ? this.claimLister.namespace(ref.namespace ?? '').get(ref.name) : undefined;
      if (claim) claimChanged(claim);
    };
    volumeInformer.addEventHandler({ onAdd: volumeChanged, onUpdate: (_old, pv) => volumeChanged(pv) });
    attachmentInformer.addEventHandler({
      onAdd: (va) => node(va.spec?.nodeName),
      onUpdate: (_old, va) => node(va.spec?.nodeName),
      onDelete: (va) => node(deletedObject(va).spec?.nodeName),
    });
    if (!options.disableReconcileSync) {
      this.every(options.reconcileSyncPeriodMs, () => {
        for (const n of this.nodeLister.list()) node(n.metadata?.name);
      });
    }
    this.run([
      nodeInformer,
      podInformer,
      claimInformer,
      volumeInformer,
      attachmentInformer,
    ] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(nodeName: string): Promise<void> {
    const node = this.nodeLister.get(nodeName);
    const ours = this.attachmentsOf(nodeName);
    if (!node) {
      // a node that is gone keeps nothing attached
      for (const va of ours.keys()) await this.deleteAttachment(va);
      return;
    }
    if (!isAttachDetachManaged(node)) return;
    const now = this.ctx.now();
    const desired = desiredAttachments(this.podsOnNode(nodeName), {
      claim: (namespace, name) => this.claimLister.namespace(namespace).get(name),
      volume: (name) => this.volumeLister.get(name),
    });
    const reported = node.status?.volumesAttached ?? [];
    const reportedNames = new Set(reported.map((v) => v.name));
    const next: AttachedVolume[] = [];
    let due: number | undefined;
    const after = (at: number): void => {
      due = due === undefined ? at : Math.min(due, at);
    };

    for (const volume of desired.values()) {
      const attached = await this.attach(nodeName, volume, now, after);
      if (!attached) continue;
      next.push({ name: volume.uniqueName, devicePath: '' });
      if (!reportedNames.has(volume.uniqueName)) {
        for (const pod of volume.pods)
          this.podEvent(
            pod,
            'Normal',
            'SuccessfulAttachVolume',
            `AttachVolume.Attach succeeded for volume "${volume.pvName}"`,
          );
      }
    }

    // detach what no pod needs: what the node reports attached, and the attachments made for it
    const unneeded = new Map<string, string>(); // VolumeAttachment name → unique volume name
    for (const v of reported) {
      if (desired.has(v.name)) continue;
      const csi = parseCSIUniqueVolumeName(v.name);
      if (!csi) {
        next.push(v); // another plugin's volume: not this controller's to detach
        continue;
      }
      unneeded.set(volumeAttachmentName(csi.volumeHandle, csi.driver, nodeName), v.name);
    }
    for (const [va, uniqueName] of ours) if (!desired.has(uniqueName)) unneeded.set(va, uniqueName);
    const inUse = new Set(node.status?.volumesInUse ?? []);
    const toDelete: string[] = [];
    const waiting = new Set<string>();
    for (const [va, uniqueName] of unneeded) {
      const key = `${nodeName}/${uniqueName}`;
      if (inUse.has(uniqueName)) {
        const since = this.unneededSince.get(key) ?? now;
        this.unneededSince.set(key, since);
        waiting.add(key);
        if (now - since < MAX_WAIT_FOR_UNMOUNT_MS) {
          if (reportedNames.has(uniqueName)) next.push({ name: uniqueName, devicePath: '' });
          after(since + MAX_WAIT_FOR_UNMOUNT_MS);
          continue;
        }
        this.ctx.logger.info(
          `attachdetach: volume ${uniqueName} on node ${nodeName} is still mounted ${MAX_WAIT_FOR_UNMOUNT_MS / 60_000} minutes after its last pod; detaching it anyway`,
        );
      }
      toDelete.push(va);
    }
    for (const key of this.unneededSince.keys())
      if (key.startsWith(`${nodeName}/`) && !waiting.has(key)) this.unneededSince.delete(key);

    // the node stops reporting a volume before it is detached, so that nothing mounts it meanwhile
    next.sort((a, b) => a.name.localeCompare(b.name));
    const sortedReported = [...reported].sort((a, b) => a.name.localeCompare(b.name));
    if (JSON.stringify(next) !== JSON.stringify(sortedReported)) {
      try {
        await this.nodes.patch(
          nodeName,
          'merge',
          { status: { volumesAttached: next.length ? next : null } },
          { subresource: 'status' },
        );
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    }
    for (const va of toDelete) await this.deleteAttachment(va);
    if (due !== undefined) this.enqueueAfter(nodeName, due - now);
  }

  /**
   * Attaches one volume: makes its VolumeAttachment, then reads what the external attacher says of
   * it. True once it is attached; failures are reported on the pods once each.
   */
  private async attach(
    nodeName: string,
    volume: DesiredAttachment,
    now: number,
    after: (at: number) => void,
  ): Promise<boolean> {
    const name = volumeAttachmentName(volume.volumeHandle, volume.driver, nodeName);
    const va = this.attachmentLister.get(name);
    if (!va) {
      try {
        await this.attachments.create({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'VolumeAttachment',
          metadata: { name },
          spec: { attacher: volume.driver, nodeName, source: { persistentVolumeName: volume.pvName } },
        } as VolumeAttachment);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      after(now + CSI_ATTACH_TIMEOUT_MS);
      return false;
    }
    // an attachment being detached is made again once it is gone
    if (va.metadata?.deletionTimestamp) return false;
    if (va.status?.attached) {
      this.reportedFailure.delete(name);
      return true;
    }
    const created = Date.parse(va.metadata?.creationTimestamp ?? '') || now;
    const message =
      va.status?.attachError?.message ??
      (now - created >= CSI_ATTACH_TIMEOUT_MS
        ? `timed out waiting for external-attacher of ${volume.driver} CSI driver to attach volume ${volume.volumeHandle}`
        : undefined);
    if (message === undefined) {
      after(created + CSI_ATTACH_TIMEOUT_MS);
      return false;
    }
    if (this.reportedFailure.get(name) !== message) {
      this.reportedFailure.set(name, message);
      for (const pod of volume.pods)
        this.podEvent(
          pod,
          'Warning',
          'FailedAttachVolume',
          `AttachVolume.Attach failed for volume "${volume.pvName}" : ${message}`,
        );
    }
    return false;
  }

  /** The VolumeAttachments of CSI persistent volumes made for the node, with their volumes' unique names. */
  private attachmentsOf(nodeName: string): Map<string, string> {
    const out = new Map<string, string>();
    for (const va of this.attachmentLister.list()) {
      if (va.spec?.nodeName !== nodeName || va.metadata?.deletionTimestamp) continue;
      const pvName = va.spec.source?.persistentVolumeName;
      const csi = pvName ? this.volumeLister.get(pvName)?.spec?.csi : undefined;
      if (!csi?.volumeHandle || csi.driver !== va.spec.attacher) continue;
      const name = va.metadata?.name ?? '';
      if (name !== volumeAttachmentName(csi.volumeHandle, csi.driver, nodeName)) continue;
      out.set(name, csiUniqueVolumeName(csi.driver, csi.volumeHandle));
    }
    return out;
  }

  private async deleteAttachment(name: string): Promise<void> {
    this.reportedFailure.delete(name);
    try {
      await this.attachments.delete(name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private podEvent(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.recorder.event(withKind(pod, 'v1', 'Pod'), type, reason, message);
  }
}
