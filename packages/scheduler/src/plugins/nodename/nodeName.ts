import type { Pod } from '@orch/api';
import type { FilterPlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Status } from '../../framework/status';

export const NODE_NAME = 'NodeName';
export const ERR_NODE_NAME_MISMATCH = "node(s) didn't match the requested hostname";

/** A pod naming a node in spec.nodeName fits only that node. */
export class NodeName implements FilterPlugin {
  readonly name = NODE_NAME;

  filter(_state: unknown, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const wanted = pod.spec?.nodeName;
    if (!wanted || wanted === nodeInfo.name) return undefined;
    return Status.unresolvable(ERR_NODE_NAME_MISMATCH);
  }
}
