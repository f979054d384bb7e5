import { NodeKind, type Node } from '@orch/api';
import {
  clientFor,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { QueueController, type ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { ClusterSizeTTL, hasTTL, NODE_TTL_ANNOTATION } from './ttlBoundaries';

/**
 * Kubernetes' ttl controller: keeps the annotation node.alpha.kubernetes.io/ttl of every node at the
 * TTL for the cluster's size (ClusterSizeTTL), patching only the nodes whose value differs. Every
 * node update queues the node, so a change of size reaches all nodes as they report their status.
 */
export class TTLController extends QueueController {
  private readonly lister: Lister<Node>;
  private readonly nodes: TypedClient<Node>;
  private readonly size = new ClusterSizeTTL();

  constructor(ctx: ControllerContext) {
    super('ttl', ctx);
    const informer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    this.lister = informer.lister();
    this.nodes = clientFor(ctx.client, NodeKind);
    informer.addEventHandler({
      onAdd: (node) => {
        this.size.nodeAdded();
        this.enqueue(node);
      },
      onUpdate: (_old, node) => this.enqueue(node),
      // a deleted node has nothing to annotate
      onDelete: () => this.size.nodeRemoved(),
    });
    this.run([informer] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(name: string): Promise<void> {
    const node = this.lister.get(name);
    if (!node) return;
    const ttl = this.size.ttlSeconds;
    if (hasTTL(node.metadata?.annotations, ttl)) return;
    try {
      await this.nodes.patch(name, 'strategic', {
        metadata: { annotations: { [NODE_TTL_ANNOTATION]: String(ttl) } },
      });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
  }
}
