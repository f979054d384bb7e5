import type { Node } from '@orch/api';
import { formatTime } from '@orch/client';
import { errorMessage } from '@orch/component-base';
import type { Route, Routes } from '../../cloudprovider/CloudProvider';
import { cidrWithin } from '../../net/cidr';
import type { CloudControllerContext } from '../CloudControllerContext';
import { NodeQueueController } from '../NodeQueueController';
import { nodeCondition } from '../nodeUtil';

/** The one key the route controller reconciles: the whole table at once. */
const ROUTES_KEY = 'routes';

/** A node's pod CIDRs (spec.podCIDRs, else spec.podCIDR). */
export function nodePodCIDRs(node: Node): string[] {
  const cidrs = node.spec?.podCIDRs ?? [];
  if (cidrs.length) return [...cidrs];
  return node.spec?.podCIDR ? [node.spec.podCIDR] : [];
}

/** What the route table should change: routes to create and routes to delete. */
export function routePlan(
  nodes: readonly Node[],
  routes: readonly Route[],
  clusterCIDRs: readonly string[],
): { create: { node: Node; cidr: string }[]; remove: Route[] } {
  const wanted = new Map<string, Set<string>>();
  for (const node of nodes) wanted.set(node.metadata?.name ?? '', new Set(nodePodCIDRs(node)));
  const has = (nodeName: string, cidr: string): boolean =>
    routes.some((r) => !r.blackhole && r.targetNode === nodeName && r.destinationCIDR === cidr);
  const create = nodes.flatMap((node) =>
    nodePodCIDRs(node)
      .filter((cidr) => !has(node.metadata?.name ?? '', cidr))
      .map((cidr) => ({ node, cidr })),
  );
  // Only routes inside the cluster CIDRs are this controller's to delete.
  const remove = routes.filter(
    (r) =>
      (r.blackhole || !wanted.get(r.targetNode)?.has(r.destinationCIDR)) &&
      cidrWithin(r.destinationCIDR, clusterCIDRs),
  );
  return { create, remove };
}

/**
 * Kubernetes' route controller: every --route-reconciliation-period (and when nodes change) the
 * cloud's routes of the cluster are made to match the nodes' pod CIDRs, and each node's
 * NetworkUnavailable condition tells whether its routes exist.
 */
export class RouteController extends NodeQueueController {
  constructor(
    ctx: CloudControllerContext,
    private readonly routes: Routes,
  ) {
    super('route', ctx);
    const changed = (): void => this.queue.add(ROUTES_KEY);
    this.informer.addEventHandler({
      onAdd: changed,
      onUpdate: (old, node) => {
        if (nodePodCIDRs(old).join() !== nodePodCIDRs(node).join()) changed();
      },
      onDelete: changed,
    });
    this.every(ctx.options.routeReconciliationPeriodMs, changed);
    this.run([this.informer]);
  }

  protected async sync(): Promise<void> {
    const { clusterName, clusterCIDRs } = this.ctx.options;
    const nodes = this.informer.lister().list();
    const routes = await this.routes.listRoutes(clusterName);
    const plan = routePlan(nodes, routes, clusterCIDRs);
    const failed = new Set<string>();
    for (const { node, cidr } of plan.create) {
      const name = node.metadata?.name ?? '';
      try {
        await this.routes.createRoute(clusterName, node.metadata?.uid ?? name, {
          targetNode: name,
          destinationCIDR: cidr,
        });
        this.ctx.logger.info(`Created route for node ${name} ${cidr}`);
      } catch (err) {
        failed.add(name);
        this.ctx.recorder.event(
          node,
          'Warning',
          'FailedToCreateRoute',
          `Could not create route ${cidr} for node ${name}: ${errorMessage(err)}`,
        );
      }
    }
    for (const route of plan.remove) {
      await this.routes.deleteRoute(clusterName, route);
      this.ctx.logger.info(`Deleted route ${route.name} ${route.destinationCIDR}`);
    }
    for (const node of nodes) {
      if (nodePodCIDRs(node).length === 0) continue;
      await this.updateNetworkingCondition(node, !failed.has(node.metadata?.name ?? ''));
    }
    if (failed.size) throw new Error(`could not create routes for ${[...failed].join(', ')}`);
  }

  /** Sets NetworkUnavailable as Kubernetes' route controller does, unless it already says so. */
  private async updateNetworkingCondition(node: Node, routesCreated: boolean): Promise<void> {
    const current = nodeCondition(node, 'NetworkUnavailable');
    const wanted = routesCreated ? 'False' : 'True';
    if (current?.status === wanted) return;
    const now = formatTime(this.ctx.now());
    const condition = routesCreated
      ? { reason: 'RouteCreated', message: 'RouteController created a route' }
      : { reason: 'NoRouteCreated', message: 'RouteController failed to create a route' };
    await this.nodes.patch(
      node.metadata?.name ?? '',
      'strategic',
      {
        status: {
          conditions: [
            {
              type: 'NetworkUnavailable',
              status: wanted,
              ...condition,
              lastTransitionTime: now,
              lastHeartbeatTime: now,
            },
          ],
        },
      },
      { subresource: 'status' },
    );
  }
}
