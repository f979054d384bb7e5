import { ServiceKind, type Node, type Service } from '@orch/api';
import { clientFor, type SharedIndexInformer, type TypedClient } from '@orch/client';
import { deletedObject, errorMessage, featureEnabled, QueueController } from '@orch/component-base';
import type { LoadBalancer } from '../../cloudprovider/CloudProvider';
import { NODES, SERVICES } from '../resources';
import type { CloudControllerContext } from '../CloudControllerContext';

/**
 * Held by LoadBalancer services until their load balancer is deleted (added with the
 * ServiceLoadBalancerFinalizer gate on; removed whenever present).
 */
export const LOAD_BALANCER_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
/** Nodes with this label are left out of load balancers (with the ServiceNodeExclusion gate on). */
export const EXCLUDE_LB_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers';
/** The deprecated label of the same meaning, honoured with it. */
export const ALPHA_EXCLUDE_LB_LABEL = 'alpha.service-controller.kubernetes.io/exclude-balancer';
const EXCLUDE_LB_LABELS = [EXCLUDE_LB_LABEL, ALPHA_EXCLUDE_LB_LABEL];
/** How often load balancer hosts are re-checked besides node events (Kubernetes' nodeSyncPeriod). */
export const NODE_SYNC_PERIOD_MS = 100_000;

/** Whether the service asks this controller for a load balancer. */
export function wantsLoadBalancer(service: Service): boolean {
  return service.spec?.type === 'LoadBalancer' && !service.spec.loadBalancerClass;
}

export function hasCleanupFinalizer(service: Service): boolean {
  return (service.metadata?.finalizers ?? []).includes(LOAD_BALANCER_CLEANUP_FINALIZER);
}

/** Nodes labelled with this role are masters, left out of load balancers by the legacy rule. */
export const MASTER_ROLE_LABEL = 'node-role.kubernetes.io/master';

/** Whether the node has one of the exclude-from-load-balancers labels. */
function hasExcludeLabel(node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  return EXCLUDE_LB_LABELS.some((l) => labels[l] !== undefined);
}

function hasMasterRoleLabel(node: Node): boolean {
  return (node.metadata?.labels ?? {})[MASTER_ROLE_LABEL] !== undefined;
}

/** The feature gates that leave nodes out of load balancers. */
export interface HostExclusionGates {
  /** The exclude-from-load-balancers labels count. */
  serviceNodeExclusion: boolean;
  /** Nodes labelled as masters are left out (deprecated). */
  legacyNodeRoleBehavior: boolean;
}

/**
 * The nodes a load balancer sends traffic to, by name: all but deleted ones, with the
 * ServiceNodeExclusion gate on those labelled to be excluded, and with the LegacyNodeRoleBehavior gate
 * on those labelled as masters.
 */
export function loadBalancerHosts(nodes: readonly Node[], gates: HostExclusionGates): Node[] {
  return nodes
    .filter(
      (n) =>
        !n.metadata?.deletionTimestamp &&
        !(gates.serviceNodeExclusion && hasExcludeLabel(n)) &&
        !(gates.legacyNodeRoleBehavior && hasMasterRoleLabel(n)),
    )
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** What of a node matters to load balancers: its addresses, exclusion and deletion. */
function hostAttributes(node: Node): string {
  return JSON.stringify([
    node.status?.addresses ?? [],
    hasExcludeLabel(node),
    hasMasterRoleLabel(node),
    !!node.metadata?.deletionTimestamp,
  ]);
}

/** Identifies a set of hosts: their names and addresses. */
function hostsKey(hosts: readonly Node[]): string {
  return hosts.map((n) => `${n.metadata?.name}=${JSON.stringify(n.status?.addresses ?? [])}`).join(',');
}

/** What a load balancer was last made from: the spec and the hosts. */
interface Applied {
  spec: string;
  hosts: string;
  service: Service;
}

/**
 * Kubernetes' service controller: Services of type LoadBalancer get the cleanup finalizer (with
 * the ServiceLoadBalancerFinalizer gate on), a load balancer from the cloud and its ingress in
 * status; a service that stops wanting one or is deleted has it deleted and the finalizer removed.
 * Node changes re-point existing load balancers at the new hosts.
 */
export class ServiceController extends QueueController {
  private readonly services: SharedIndexInformer<Service>;
  private readonly nodeInformer: SharedIndexInformer<Node>;
  private readonly client: TypedClient<Service>;
  private readonly applied = new Map<string, Applied>();
  private lastHosts = '';
  /** Which labels leave nodes out (the ServiceNodeExclusion and LegacyNodeRoleBehavior gates). */
  private readonly hostExclusion: HostExclusionGates;
  /** Load balancers are guarded by the cleanup finalizer (the ServiceLoadBalancerFinalizer gate). */
  private readonly useFinalizer: boolean;

  constructor(
    protected override readonly ctx: CloudControllerContext,
    private readonly lb: LoadBalancer,
  ) {
    super('service', ctx);
    this.hostExclusion = {
      serviceNodeExclusion: featureEnabled(ctx, 'ServiceNodeExclusion'),
      legacyNodeRoleBehavior: featureEnabled(ctx, 'LegacyNodeRoleBehavior'),
    };
    this.useFinalizer = featureEnabled(ctx, 'ServiceLoadBalancerFinalizer');
    this.client = clientFor(ctx.client, ServiceKind);
    this.services = ctx.informers.informerFor<Service>(SERVICES);
    this.nodeInformer = ctx.informers.informerFor<Node>(NODES);
    const relevant = (s: Service): boolean => wantsLoadBalancer(s) || hasCleanupFinalizer(s);
    this.services.addEventHandler({
      onAdd: (s) => relevant(s) && this.enqueue(s),
      onUpdate: (old, s) => (relevant(s) || relevant(old)) && this.enqueue(s),
      onDelete: (s) => this.enqueue(deletedObject(s)),
    });
    const nodesChanged = (): void => this.syncHosts();
    this.nodeInformer.addEventHandler({
      onAdd: nodesChanged,
      onUpdate: (old, node) => {
        if (hostAttributes(old) !== hostAttributes(node)) nodesChanged();
      },
      onDelete: nodesChanged,
    });
    this.every(NODE_SYNC_PERIOD_MS, nodesChanged);
    this.run([this.services, this.nodeInformer]);
  }

  private hosts(): Node[] {
    return loadBalancerHosts(this.nodeInformer.lister().list(), this.hostExclusion);
  }

  /** When the set of hosts changed, every load balancer is brought up to date. */
  private syncHosts(): void {
    const hosts = hostsKey(this.hosts());
    if (hosts === this.lastHosts) return;
    this.lastHosts = hosts;
    for (const key of this.applied.keys()) this.queue.add(key);
  }

  protected async sync(key: string): Promise<void> {
    const service = this.services.lister().get(key);
    if (!service) {
      // Gone without the finalizer (or it was removed by hand): clean up what is left.
      const last = this.applied.get(key);
      if (last) await this.lb.ensureLoadBalancerDeleted(this.ctx.options.clusterName, last.service);
      this.applied.delete(key);
      return;
    }
    if (service.metadata?.deletionTimestamp || !wantsLoadBalancer(service)) {
      if (hasCleanupFinalizer(service)) await this.deleteLoadBalancer(key, service);
      else if (this.applied.delete(key))
        await this.lb.ensureLoadBalancerDeleted(this.ctx.options.clusterName, service);
      return;
    }
    await this.ensureLoadBalancer(key, service);
  }

  private async ensureLoadBalancer(key: string, service: Service): Promise<void> {
    const { clusterName } = this.ctx.options;
    let current = service;
    if (this.useFinalizer && !hasCleanupFinalizer(current)) {
      current = await this.client.patch(
        current.metadata?.name ?? '',
        'merge',
        {
          metadata: {
            resourceVersion: current.metadata?.resourceVersion,
            finalizers: [...(current.metadata?.finalizers ?? []), LOAD_BALANCER_CLEANUP_FINALIZER],
          },
        },
        { namespace: current.metadata?.namespace },
      );
    }
    const hosts = this.hosts();
    const hostKey = hostsKey(hosts);
    const spec = JSON.stringify(current.spec);
    const last = this.applied.get(key);
    const existing = await this.lb.getLoadBalancer(clusterName, current);
    if (last && existing && last.spec === spec) {
      if (last.hosts !== hostKey) {
        await this.lb.updateLoadBalancer(clusterName, current, hosts);
        this.ctx.recorder.event(
          current,
          'Normal',
          'UpdatedLoadBalancer',
          'Updated load balancer with new hosts',
        );
        this.applied.set(key, { spec, hosts: hostKey, service: current });
      }
      await this.writeStatus(current, existing.ingress);
      return;
    }
    this.ctx.recorder.event(current, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    let status;
    try {
      status = await this.lb.ensureLoadBalancer(clusterName, current, hosts);
    } catch (err) {
      this.ctx.recorder.event(
        current,
        'Warning',
        'SyncLoadBalancerFailed',
        `Error syncing load balancer: failed to ensure load balancer: ${errorMessage(err)}`,
      );
      throw err;
    }
    this.ctx.recorder.event(current, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
    this.applied.set(key, { spec, hosts: hostKey, service: current });
    await this.writeStatus(current, status.ingress);
  }

  private async deleteLoadBalancer(key: string, service: Service): Promise<void> {
    this.ctx.recorder.event(service, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
    try {
      await this.lb.ensureLoadBalancerDeleted(this.ctx.options.clusterName, service);
    } catch (err) {
      this.ctx.recorder.event(
        service,
        'Warning',
        'DeleteLoadBalancerFailed',
        `Error deleting load balancer: ${errorMessage(err)}`,
      );
      throw err;
    }
    this.ctx.recorder.event(service, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
    this.applied.delete(key);
    let current = service;
    if (!service.metadata?.deletionTimestamp) current = await this.writeStatus(service, []);
    await this.client.patch(
      current.metadata?.name ?? '',
      'merge',
      {
        metadata: {
          resourceVersion: current.metadata?.resourceVersion,
          finalizers: (current.metadata?.finalizers ?? []).filter(
            (f) => f !== LOAD_BALANCER_CLEANUP_FINALIZER,
          ),
        },
      },
      { namespace: current.metadata?.namespace },
    );
  }

  /** Writes status.loadBalancer.ingress through the status subresource when it differs. */
  private async writeStatus(
    service: Service,
    ingress: { ip?: string; hostname?: string }[],
  ): Promise<Service> {
    const current = service.status?.loadBalancer?.ingress ?? [];
    if (JSON.stringify(current) === JSON.stringify(ingress)) return service;
    return this.client.patch(
      service.metadata?.name ?? '',
      'merge',
      { status: { loadBalancer: { ingress: ingress.length ? ingress : null } } },
      { namespace: service.metadata?.namespace, subresource: 'status' },
    );
  }
}
