import { NodeKind, type Node, type ObjectReference } from '@orch/api';
import {
  clientFor,
  isNotFound,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import {
  type ControllerContext,
  deletedObject,
  errorMessage,
  type NodeIpamConfig,
  QueueController,
} from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { CIDRSet } from './CIDRSet';

/** Attempts at writing a node's CIDRs before giving them back, as Kubernetes. */
const CIDR_UPDATE_RETRIES = 3;

const nodeRef = (node: Node): ObjectReference => ({
  apiVersion: 'v1',
  kind: 'Node',
  name: node.metadata?.name,
  ...(node.metadata?.uid ? { uid: node.metadata.uid } : {}),
});

/**
 * Kubernetes' range allocator of the node IPAM controller: every node without spec.podCIDRs gets
 * the next free node CIDR of each cluster CIDR; the CIDRs nodes already have are marked used when
 * the caches have synced (and when a node shows up with them), the service ranges overlapping a
 * cluster CIDR are never handed out, and a deleted node's CIDRs are free again. With none left, the
 * node gets a CIDRNotAvailable event and is retried with backoff.
 */
export class RangeAllocator extends QueueController {
  readonly cidrSets: CIDRSet[];
  private readonly nodeLister: Lister<Node>;
  private readonly nodes: TypedClient<Node>;
  private occupied = false;
  /** CIDRs written to nodes whose update the cache has not shown yet, by node. */
  private readonly written = new Map<string, string[]>();

  constructor(ctx: ControllerContext, config: NodeIpamConfig) {
    super('nodeipam', ctx);
    this.cidrSets = config.clusterCIDRs.map((cidr, i) => new CIDRSet(cidr, config.nodeMaskSizes[i]!));
    for (const service of config.serviceCIDRs) this.filterOutServiceRange(service.text);
    const nodeInformer = ctx.informers.informerFor<Node>(RESOURCES.nodes);
    this.nodeLister = nodeInformer.lister();
    this.nodes = clientFor(ctx.client, NodeKind);
    nodeInformer.addEventHandler({
      onAdd: (node) => this.enqueue(node),
      onUpdate: (_old, node) => this.enqueue(node),
      onDelete: (obj) => {
        const node = deletedObject(obj);
        this.written.delete(node.metadata?.name ?? '');
        this.releaseCIDRs(node);
      },
    });
    this.run([nodeInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(name: string): Promise<void> {
    this.occupyExisting();
    const node = this.nodeLister.get(name);
    if (!node) {
      this.written.delete(name);
      return;
    }
    if (node.metadata?.deletionTimestamp) {
      this.releaseCIDRs(node);
      return;
    }
    if (node.spec?.podCIDRs?.length) {
      this.written.delete(name);
      this.occupyCIDRs(node);
      return;
    }
    // the update that gave it its CIDRs is on its way to the cache
    if (this.written.has(name)) return;
    await this.allocate(node);
  }

  /** Once, before the first allocation: the CIDRs of the nodes in the synced cache are taken. */
  private occupyExisting(): void {
    if (this.occupied) return;
    this.occupied = true;
    for (const node of this.nodeLister.list()) if (node.spec?.podCIDRs?.length) this.occupyCIDRs(node);
  }

  private filterOutServiceRange(service: string): void {
    for (const set of this.cidrSets) {
      if (!set.overlaps(service)) continue;
      set.occupy(service);
      this.ctx.logger.info(
        `nodeipam: service range ${service} is excluded from cluster CIDR ${set.cluster.text}`,
      );
    }
  }

  private occupyCIDRs(node: Node): void {
    const name = node.metadata?.name ?? '';
    (node.spec?.podCIDRs ?? []).forEach((cidr, i) => {
      const set = this.cidrSets[i];
      try {
        if (!set)
          throw new Error(
            `node:${name} has an allocated cidr: ${cidr} at index:${i} that does not exist in cluster cidrs configuration`,
          );
        set.occupy(cidr);
      } catch (err) {
        // a CIDR this allocator does not own: nothing to mark, and nothing retrying would change
        this.ctx.logger.warning(
          `nodeipam: failed to mark cidr[${cidr}] at idx [${i}] as occupied for node: ${name}: ${errorMessage(err)}`,
        );
      }
    });
  }

  private releaseCIDRs(node: Node): void {
    const name = node.metadata?.name ?? '';
    (node.spec?.podCIDRs ?? []).forEach((cidr, i) => {
      try {
        this.cidrSets[i]?.release(cidr);
      } catch (err) {
        this.ctx.logger.warning(`nodeipam: releasing CIDR ${cidr} of node ${name}: ${errorMessage(err)}`);
      }
    });
  }

  private async allocate(node: Node): Promise<void> {
    const name = node.metadata?.name ?? '';
    const cidrs: string[] = [];
    for (const [i, set] of this.cidrSets.entries()) {
      try {
        cidrs.push(set.allocateNext());
      } catch (err) {
        cidrs.forEach((c, j) => this.cidrSets[j]!.release(c));
        this.ctx.recorder.event(
          nodeRef(node),
          'Normal',
          'CIDRNotAvailable',
          `Node ${name} status is now: CIDRNotAvailable`,
        );
        throw new Error(`failed to allocate cidr from cluster cidr at idx:${i}: ${errorMessage(err)}`, {
          cause: err,
        });
      }
    }
    await this.assign(name, cidrs);
  }

  /** Writes the node's CIDRs, unless it got some meanwhile; the CIDRs go back when they cannot be written. */
  private async assign(name: string, cidrs: string[]): Promise<void> {
    const giveBack = (): void => cidrs.forEach((c, i) => this.cidrSets[i]!.release(c));
    const node = this.nodeLister.get(name);
    if (!node) {
      giveBack();
      return;
    }
    const current = node.spec?.podCIDRs ?? [];
    if (current.length === cidrs.length && current.every((c, i) => c === cidrs[i])) return;
    if (current.length) {
      this.ctx.logger.warning(
        `nodeipam: node ${name} already has a CIDR allocated (${current.join(',')}); releasing the new one`,
      );
      giveBack();
      return;
    }
    let lastError: unknown;
    for (let attempt = 0; attempt < CIDR_UPDATE_RETRIES; attempt++) {
      try {
        await this.nodes.patch(name, 'merge', { spec: { podCIDR: cidrs[0], podCIDRs: cidrs } });
        this.written.set(name, cidrs);
        this.ctx.logger.info(`nodeipam: set node ${name} PodCIDR to ${cidrs.join(',')}`);
        return;
      } catch (err) {
        if (isNotFound(err)) {
          giveBack();
          return;
        }
        lastError = err;
      }
    }
    this.ctx.recorder.event(
      nodeRef(node),
      'Normal',
      'CIDRAssignmentFailed',
      `Node ${name} status is now: CIDRAssignmentFailed`,
    );
    giveBack();
    throw new Error(`failed to update node ${name} PodCIDR: ${errorMessage(lastError)}`, {
      cause: lastError,
    });
  }
}
