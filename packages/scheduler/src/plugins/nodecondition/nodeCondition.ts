import { isBestEffortPod, type Node, type Pod } from '@orch/api';
import type { FilterPlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Status } from '../../framework/status';
import { ERR_NODE_UNKNOWN_CONDITION, ERR_NODE_UNSCHEDULABLE } from '../nodeunschedulable/nodeUnschedulable';

export const NODE_CONDITION = 'NodeCondition';
/** The gate under which node conditions reach the scheduler as taints instead. */
export const TAINT_NODES_BY_CONDITION = 'TaintNodesByCondition';
export const ERR_NODE_NOT_READY = 'node(s) were not ready';
export const ERR_NODE_NETWORK_UNAVAILABLE = 'node(s) had network unavailable';
export const ERR_NODE_UNDER_MEMORY_PRESSURE = 'node(s) had memory pressure';
export const ERR_NODE_UNDER_DISK_PRESSURE = 'node(s) had disk pressure';
export const ERR_NODE_UNDER_PID_PRESSURE = 'node(s) had pid pressure';

const conditionStatus = (node: Node, type: string): string | undefined =>
  node.status?.conditions?.find((c) => c.type === type)?.status;

/**
 * Node conditions checked directly, for clusters that run with TaintNodesByCondition off (where no
 * controller turns them into taints): Kubernetes' CheckNodeCondition, CheckNodeMemoryPressure,
 * CheckNodeDiskPressure and CheckNodePIDPressure predicates. A node must be Ready, have its network
 * available and not be cordoned (tolerations do not help there); BestEffort pods stay off nodes
 * under memory pressure, and every pod off nodes under pid or disk pressure.
 */
export class NodeCondition implements FilterPlugin {
  readonly name = NODE_CONDITION;

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const node = nodeInfo.node;
    if (!node) return Status.unresolvable(ERR_NODE_UNKNOWN_CONDITION);
    const reasons: string[] = [];
    for (const c of node.status?.conditions ?? []) {
      if (c.type === 'Ready' && c.status !== 'True') reasons.push(ERR_NODE_NOT_READY);
      else if (c.type === 'NetworkUnavailable' && c.status !== 'False')
        reasons.push(ERR_NODE_NETWORK_UNAVAILABLE);
    }
    if (node.spec?.unschedulable) reasons.push(ERR_NODE_UNSCHEDULABLE);
    if (reasons.length) return Status.unresolvable(...reasons);
    // the pressure predicates, in Kubernetes' order
    if (conditionStatus(node, 'MemoryPressure') === 'True' && isBestEffortPod(pod))
      return Status.unresolvable(ERR_NODE_UNDER_MEMORY_PRESSURE);
    if (conditionStatus(node, 'PIDPressure') === 'True')
      return Status.unresolvable(ERR_NODE_UNDER_PID_PRESSURE);
    if (conditionStatus(node, 'DiskPressure') === 'True')
      return Status.unresolvable(ERR_NODE_UNDER_DISK_PRESSURE);
    return undefined;
  }
}
