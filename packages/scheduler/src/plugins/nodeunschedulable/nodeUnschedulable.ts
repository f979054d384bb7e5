import { TAINT_NODE_UNSCHEDULABLE, tolerationsTolerateTaint, type Pod, type Taint } from '@orch/api';
import type { FilterPlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Status } from '../../framework/status';

export const NODE_UNSCHEDULABLE = 'NodeUnschedulable';
export const ERR_NODE_UNSCHEDULABLE = 'node(s) were unschedulable';
export const ERR_NODE_UNKNOWN_CONDITION = 'node(s) had unknown conditions';
/** The taint a cordoned node stands for; pods tolerating it may still go there. */
export { TAINT_NODE_UNSCHEDULABLE };

const unschedulableTaint: Taint = { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' };

/** Keeps pods off nodes with spec.unschedulable unless they tolerate the unschedulable taint. */
export class NodeUnschedulable implements FilterPlugin {
  readonly name = NODE_UNSCHEDULABLE;

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const node = nodeInfo.node;
    if (!node) return Status.unresolvable(ERR_NODE_UNKNOWN_CONDITION);
    if (!node.spec?.unschedulable) return undefined;
    if (tolerationsTolerateTaint(pod.spec?.tolerations, unschedulableTaint)) return undefined;
    return Status.unresolvable(ERR_NODE_UNSCHEDULABLE);
  }
}
