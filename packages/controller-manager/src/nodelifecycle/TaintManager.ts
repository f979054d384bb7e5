import { isDeepStrictEqual } from 'node:util';
import { PodKind, type Node, type ObjectReference, type Pod, type Taint } from '@orch/api';
import { clientFor, isNotFound, type Lister, type SharedIndexInformer, type TypedClient } from '@orch/client';
import { type ControllerContext, deletedObject, errorMessage, QueueController } from '@orch/component-base';
import { TAINT_MANAGER_DISRUPTION_CONDITION, withPodCondition } from './podConditions';
import { evictionTime } from './tolerationTime';

/** How often due evictions are looked for (Kubernetes' NodeEvictionPeriod). */
export const TAINT_EVICTION_CHECK_PERIOD_MS = 100;

/** A pod's pending deletion: when, and whether its event was emitted. */
interface ScheduledEviction {
  at: number;
  announced: boolean;
}

const noExecuteTaints = (node: Node | undefined): Taint[] =>
  (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');

const taintId = (t: Taint): string => `${t.key ?? ''}:${t.effect}`;

const podRef = (namespace: string, name: string, uid?: string): ObjectReference => ({
  apiVersion: 'v1',
  kind: 'Pod',
  namespace,
  name,
  ...(uid ? { uid } : {}),
});

/**
 * The NoExecute taint manager: a pod on a node with NoExecute taints it does not tolerate is
 * deleted at once; one tolerating them all, some for a limited tolerationSeconds, is deleted when
 * the shortest of those has passed since its taint's timeAdded (or since the taint was first
 * seen). Before deleting, the pod gets the DisruptionTarget condition (DeletionByTaintManager) and
 * the event TaintManagerEviction; a taint removed in time cancels the deletion.
 */
export class TaintManager extends QueueController {
  private readonly nodeLister: Lister<Node>;
  private readonly podLister: Lister<Pod>;
  private readonly pods: TypedClient<Pod>;
  /** When each NoExecute taint (by key and effect) of each node was first seen. */
  private readonly firstSeen = new Map<string, Map<string, number>>();
  /** Pending deletions by pod key. */
  private readonly scheduled = new Map<string, ScheduledEviction>();

  constructor(
    ctx: ControllerContext,
    nodeInformer: SharedIndexInformer<Node>,
    podInformer: SharedIndexInformer<Pod>,
    private readonly podsOnNode: (nodeName: string) => Pod[],
  ) {
    super('taint-manager', ctx);
    this.nodeLister = nodeInformer.lister();
    this.podLister = podInformer.lister();
    this.pods = clientFor(ctx.client, PodKind);
    nodeInformer.addEventHandler({
      onAdd: (node) => this.queue.add(`node/${node.metadata?.name ?? ''}`),
      onUpdate: (old, node) => {
        if (isDeepStrictEqual(noExecuteTaints(old), noExecuteTaints(node))) return;
        this.queue.add(`node/${node.metadata?.name ?? ''}`);
      },
      onDelete: (obj) => this.queue.add(`node/${deletedObject(obj).metadata?.name ?? ''}`),
    });
    podInformer.addEventHandler({
      onAdd: (pod) => this.enqueuePod(pod),
      onUpdate: (old, pod) => {
        if (
          old.spec?.nodeName === pod.spec?.nodeName &&
          isDeepStrictEqual(old.spec?.tolerations ?? [], pod.spec?.tolerations ?? []) &&
          !old.metadata?.deletionTimestamp === !pod.metadata?.deletionTimestamp
        )
          return;
        this.enqueuePod(pod);
      },
      onDelete: (obj) => this.enqueuePod(deletedObject(obj)),
    });
    this.every(TAINT_EVICTION_CHECK_PERIOD_MS, () => this.enqueueDue());
    this.run([nodeInformer, podInformer] as never);
  }

  /** The pods whose deletion is pending, with when it is due. */
  pendingEvictions(): Map<string, number> {
    return new Map([...this.scheduled].map(([key, s]) => [key, s.at]));
  }

  private enqueuePod(pod: Pod): void {
    this.queue.add(`pod/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`);
  }

  private enqueueDue(): void {
    const now = this.ctx.now();
    for (const [key, s] of this.scheduled) if (s.at <= now) this.queue.add(`pod/${key}`);
  }

  protected async sync(key: string): Promise<void> {
    if (key.startsWith('node/')) return this.syncNode(key.slice('node/'.length));
    const [namespace = '', name = ''] = key.slice('pod/'.length).split('/');
    const pod = this.podLister.namespace(namespace).get(name);
    if (!pod) {
      this.cancel(namespace, name);
      return;
    }
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) {
      this.cancel(namespace, name);
      return;
    }
    await this.processPod(pod, this.observeTaints(nodeName, this.nodeLister.get(nodeName)));
  }

  private async syncNode(name: string): Promise<void> {
    const node = this.nodeLister.get(name);
    const taints = this.observeTaints(name, node);
    if (!node) return;
    const pods = this.podsOnNode(name);
    const errors: string[] = [];
    for (const pod of pods) {
      try {
        await this.processPod(pod, taints);
      } catch (err) {
        errors.push(`${pod.metadata?.namespace}/${pod.metadata?.name}: ${errorMessage(err)}`);
      }
    }
    if (errors.length > 0) throw new Error(errors.join('; '));
  }

  /** The node's NoExecute taints, noting when each was first seen. */
  private observeTaints(name: string, node: Node | undefined): Taint[] {
    const taints = noExecuteTaints(node);
    if (taints.length === 0) {
      this.firstSeen.delete(name);
      return taints;
    }
    const seen = this.firstSeen.get(name) ?? new Map<string, number>();
    const now = this.ctx.now();
    const ids = new Set(taints.map(taintId));
    for (const id of seen.keys()) if (!ids.has(id)) seen.delete(id);
    for (const id of ids) if (!seen.has(id)) seen.set(id, now);
    this.firstSeen.set(name, seen);
    return taints;
  }

  private async processPod(pod: Pod, taints: readonly Taint[]): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const key = `${namespace}/${name}`;
    if (pod.metadata?.deletionTimestamp) {
      // Already going: nothing left to do.
      this.scheduled.delete(key);
      return;
    }
    const now = this.ctx.now();
    const seen = this.firstSeen.get(pod.spec?.nodeName ?? '');
    const when = evictionTime(taints, pod.spec?.tolerations, now, (t) => seen?.get(taintId(t)) ?? now);
    if (!when) {
      this.cancel(namespace, name);
      return;
    }
    const current = this.scheduled.get(key);
    const entry = current && current.at === when.at ? current : { at: when.at, announced: false };
    this.scheduled.set(key, entry);
    if (when.at > now) return;
    if (!entry.announced) {
      entry.announced = true;
      this.ctx.recorder.event(
        podRef(namespace, name, pod.metadata?.uid),
        'Normal',
        'TaintManagerEviction',
        `Marking for deletion Pod ${key}`,
      );
    }
    this.ctx.logger.info(`taint-manager: deleting pod ${key} from node ${pod.spec?.nodeName}`);
    await this.addConditionAndDelete(namespace, name);
    this.scheduled.delete(key);
  }

  /** Adds the DisruptionTarget condition (through the status) and deletes the pod; gone already is done. */
  private async addConditionAndDelete(namespace: string, name: string): Promise<void> {
    try {
      const pod = await this.pods.get(name, { namespace });
      if (pod.metadata?.deletionTimestamp) return;
      const condition = withPodCondition(pod, TAINT_MANAGER_DISRUPTION_CONDITION, this.ctx.now());
      if (condition) {
        await this.pods.patch(
          name,
          'strategic',
          { metadata: { uid: pod.metadata?.uid }, status: { conditions: [condition] } },
          { namespace, subresource: 'status' },
        );
      }
      await this.pods.delete(name, { namespace, preconditions: { uid: pod.metadata?.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Cancels the pod's pending deletion, saying so. */
  private cancel(namespace: string, name: string): void {
    if (!this.scheduled.delete(`${namespace}/${name}`)) return;
    this.ctx.recorder.event(
      podRef(namespace, name),
      'Normal',
      'TaintManagerEviction',
      `Cancelling deletion of Pod ${namespace}/${name}`,
    );
  }
}
