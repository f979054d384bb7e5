import { isNotFound } from '@orch/client';
import type { Instances } from '../../cloudprovider/CloudProvider';
import type { CloudControllerContext } from '../CloudControllerContext';
import { NodeQueueController } from '../NodeQueueController';
import { hasTaint, isNodeReady, SHUTDOWN_TAINT_KEY, withoutTaint, withTaint } from '../nodeUtil';

/**
 * Kubernetes' cloud node lifecycle controller: every --node-monitor-period each node whose Ready
 * condition is not True is checked against the cloud; a shut-down instance taints its node
 * node.cloudprovider.kubernetes.io/shutdown:NoSchedule, a vanished one has its Node deleted. The
 * taint goes once the node is Ready again.
 */
export class CloudNodeLifecycleController extends NodeQueueController {
  constructor(
    ctx: CloudControllerContext,
    private readonly instances: Instances,
  ) {
    super('cloud-node-lifecycle', ctx);
    this.resyncEvery(ctx.options.nodeMonitorPeriodMs);
    this.run([this.informer]);
  }

  protected async sync(key: string): Promise<void> {
    const node = this.informer.lister().get(key);
    if (!node || node.metadata?.deletionTimestamp) return;
    if (isNodeReady(node)) {
      if (hasTaint(node, SHUTDOWN_TAINT_KEY)) await this.nodes.update(withoutTaint(node, SHUTDOWN_TAINT_KEY));
      return;
    }
    if (await this.instances.instanceShutdown(node)) {
      if (!hasTaint(node, SHUTDOWN_TAINT_KEY))
        await this.nodes.update(withTaint(node, SHUTDOWN_TAINT_KEY, this.ctx.now()));
      return;
    }
    if (await this.instances.instanceExists(node)) return;
    this.ctx.recorder.event(
      node,
      'Normal',
      'DeletingNode',
      `Deleting node ${key} because it does not exist in the cloud provider`,
    );
    try {
      await this.nodes.delete(key, { preconditions: { uid: node.metadata?.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
