import { NodeKind, type Node } from '@orch/api';
import { clientFor, type SharedIndexInformer, type TypedClient } from '@orch/client';
import { QueueController } from '@orch/component-base';
import type { CloudControllerContext } from './CloudControllerContext';
import { NODES } from './resources';

/** A cloud controller reconciling Nodes: the shared Node informer and a Node client. */
export abstract class NodeQueueController extends QueueController {
  protected readonly informer: SharedIndexInformer<Node>;
  protected readonly nodes: TypedClient<Node>;

  constructor(
    name: string,
    protected override readonly ctx: CloudControllerContext,
  ) {
    super(name, ctx);
    this.nodes = clientFor(ctx.client, NodeKind);
    this.informer = ctx.informers.informerFor<Node>(NODES);
  }

  private resyncs = false;

  /**
   * Enqueues every cached node once the cache has synced, then each `ms` until the controller
   * stops, as Kubernetes' wait.Until runs a periodic function first at once.
   */
  protected resyncEvery(ms: number): void {
    this.resyncs = true;
    this.every(ms, () => this.enqueueAll());
  }

  protected override onSynced(): void {
    if (this.resyncs) this.enqueueAll();
  }

  private enqueueAll(): void {
    for (const node of this.informer.lister().list()) this.enqueue(node);
  }
}
