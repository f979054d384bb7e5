import { ClusterRoleKind, type ClusterRole } from '@orch/api';
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
import { aggregatedRules, sameRules } from './aggregatedRules';

/** The field manager of the rules the controller writes (Kubernetes' name). */
export const CLUSTER_ROLE_AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

/**
 * Kubernetes' clusterrole-aggregation controller: the rules of every ClusterRole with an
 * aggregationRule are the union of the rules of the cluster roles its selectors select (see
 * aggregatedRules), written by server-side apply when they differ. Since the dependencies between
 * roles are not tracked, any change of any ClusterRole queues every aggregated one again.
 */
export class ClusterRoleAggregationController extends QueueController {
  private readonly lister: Lister<ClusterRole>;
  private readonly clusterRoles: TypedClient<ClusterRole>;

  constructor(ctx: ControllerContext) {
    super('clusterrole-aggregation', ctx);
    const informer = ctx.informers.informerFor<ClusterRole>(RESOURCES.clusterroles);
    this.lister = informer.lister();
    this.clusterRoles = clientFor(ctx.client, ClusterRoleKind);
    const all = (): void => this.enqueueAggregated();
    informer.addEventHandler({ onAdd: all, onUpdate: all, onDelete: all });
    this.run([informer] as unknown as SharedIndexInformer<KubeObject>[]);
  }

  /** Queues every cluster role with an aggregation rule. */
  private enqueueAggregated(): void {
    for (const role of this.lister.list()) if (role.aggregationRule) this.enqueue(role);
  }

  protected async sync(name: string): Promise<void> {
    const role = this.lister.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, this.lister.list());
    if (!rules || sameRules(rules, role.rules)) return;
    try {
      await this.clusterRoles.apply(
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name },
          rules,
        } as ClusterRole,
        { fieldManager: CLUSTER_ROLE_AGGREGATION_FIELD_MANAGER, force: true },
      );
    } catch (err) {
      // deleted since the cache saw it: nothing to aggregate into
      if (isNotFound(err)) return;
      throw err;
    }
  }
}
