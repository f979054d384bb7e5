import {
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_TOPOLOGY_REGION,
  LABEL_TOPOLOGY_ZONE,
  providedNodeIP,
  type Node,
} from '@orch/api';
import { errorMessage } from '@orch/component-base';
import type { InstanceMetadata, Instances, NodeAddress } from '../../cloudprovider/CloudProvider';
import type { CloudControllerContext } from '../CloudControllerContext';
import { NodeQueueController } from '../NodeQueueController';
import { hasTaint, UNINITIALIZED_TAINT_KEY, withoutTaint } from '../nodeUtil';

/** Labels the controller sets from the instance, each with its beta twin. */
export const INSTANCE_TYPE_LABELS = ['node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type'];
export const ZONE_LABELS = [LABEL_TOPOLOGY_ZONE, LABEL_FAILURE_DOMAIN_BETA_ZONE];
export const REGION_LABELS = [LABEL_TOPOLOGY_REGION, LABEL_FAILURE_DOMAIN_BETA_REGION];

/** The labels a node gets from its instance. */
export function instanceLabels(meta: InstanceMetadata): Record<string, string> {
  const labels: Record<string, string> = {};
  const set = (keys: string[], value: string): void => {
    if (value) for (const k of keys) labels[k] = value;
  };
  set(INSTANCE_TYPE_LABELS, meta.instanceType);
  set(ZONE_LABELS, meta.zone);
  set(REGION_LABELS, meta.region);
  return labels;
}

/**
 * The labels of an initialized node with each beta label brought in line with its GA twin, as
 * Kubernetes' periodic label reconciliation does.
 */
export function reconciledLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  const out = { ...labels };
  for (const [ga, beta] of [INSTANCE_TYPE_LABELS, ZONE_LABELS, REGION_LABELS] as [string, string][]) {
    const value = out[ga];
    if (value !== undefined) out[beta] = value;
  }
  return out;
}

/**
 * The addresses to write: the cloud's, keeping the node's Hostname address when the cloud reports
 * none.
 */
export function mergedAddresses(node: Node, cloud: readonly NodeAddress[]): NodeAddress[] {
  const out = cloud.map((a) => ({ type: a.type, address: a.address }));
  const hostname = node.status?.addresses?.find((a) => a.type === 'Hostname');
  if (hostname?.address && !out.some((a) => a.type === 'Hostname'))
    out.push({ type: 'Hostname', address: hostname.address ?? '' });
  return out;
}

/**
 * The addresses with the node agent's --node-ip preferred (the provided-node-ip annotation), as
 * Kubernetes' cloud node controller filters the cloud's: those equal to it first, as the only ones
 * of their type, then the others. Without the annotation, the addresses as they are; when the cloud
 * reports no address equal to it, an error.
 */
export function preferNodeIP(node: Node, addresses: readonly NodeAddress[]): NodeAddress[] {
  const nodeIP = providedNodeIP(node);
  if (!nodeIP) return [...addresses];
  const matching = addresses.filter((a) => a.address === nodeIP);
  if (matching.length === 0)
    throw new Error(`failed to get node address from cloud provider that matches ip: ${nodeIP}`);
  const types = new Set(matching.map((a) => a.type));
  return [...matching, ...addresses.filter((a) => !types.has(a.type))];
}

/**
 * Kubernetes' cloud node controller: initializes nodes registered with the uninitialized taint
 * (provider ID, addresses, instance-type/zone/region labels, then the taint removed); each
 * --node-status-update-frequency every node's addresses are refreshed from the cloud and its beta
 * topology labels brought in line with the GA ones.
 */
export class CloudNodeController extends NodeQueueController {
  constructor(
    ctx: CloudControllerContext,
    private readonly instances: Instances,
  ) {
    super('cloud-node', ctx);
    const initialize = (node: Node): void => {
      if (hasTaint(node, UNINITIALIZED_TAINT_KEY)) this.enqueue(node);
    };
    // a node agent restarted with another --node-ip has its addresses refreshed now, not at the
    // next periodic sync
    this.informer.addEventHandler({
      onAdd: initialize,
      onUpdate: (old, node) => {
        if (providedNodeIP(old) !== providedNodeIP(node)) this.enqueue(node);
        else initialize(node);
      },
    });
    this.resyncEvery(ctx.options.nodeStatusUpdateFrequencyMs);
    this.run([this.informer]);
  }

  protected async sync(key: string): Promise<void> {
    const node = this.informer.lister().get(key);
    if (!node || node.metadata?.deletionTimestamp) return;
    const meta = await this.instances.instanceMetadata(node);
    const initializing = hasTaint(node, UNINITIALIZED_TAINT_KEY);
    // The patched node carries the resourceVersion the update below is checked against.
    const current = await this.updateAddresses(node, meta, initializing);
    const labels = initializing
      ? { ...current.metadata?.labels, ...instanceLabels(meta) }
      : reconciledLabels(current.metadata?.labels ?? {});
    const labelsChanged = JSON.stringify(labels) !== JSON.stringify({ ...current.metadata?.labels });
    if (!initializing && !labelsChanged) return;
    // An update checked against the resourceVersion read: a conflict retries from the newer cache.
    let updated: Node = { ...current, metadata: { ...current.metadata, labels } };
    if (initializing) {
      if (!current.spec?.providerID && meta.providerID)
        updated = { ...updated, spec: { ...updated.spec, providerID: meta.providerID } };
      updated = withoutTaint(updated, UNINITIALIZED_TAINT_KEY);
    }
    await this.nodes.update(updated);
    if (initializing) this.ctx.logger.info(`Successfully initialized node ${key} with cloud provider`);
  }

  /**
   * Writes the instance's addresses when they differ; returns the node as now stored. Addresses
   * without the provided node IP leave a node uninitialized (the sync fails and is retried); an
   * initialized node keeps the addresses it has, as in Kubernetes.
   */
  private async updateAddresses(node: Node, meta: InstanceMetadata, initializing: boolean): Promise<Node> {
    if (meta.nodeAddresses.length === 0) return node;
    let addresses: NodeAddress[];
    try {
      addresses = preferNodeIP(node, mergedAddresses(node, meta.nodeAddresses));
    } catch (err) {
      if (initializing) throw err;
      this.ctx.logger.error(
        `Failed to update node addresses for node ${node.metadata?.name ?? ''}: ${errorMessage(err)}`,
      );
      return node;
    }
    const current = (node.status?.addresses ?? []).map((a) => ({
      type: a.type ?? '',
      address: a.address ?? '',
    }));
    if (JSON.stringify(current) === JSON.stringify(addresses)) return node;
    return this.nodes.patch(
      node.metadata?.name ?? '',
      'merge',
      { status: { addresses } },
      { subresource: 'status' },
    );
  }
}
