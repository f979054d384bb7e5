import type { Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import { podHostPorts, type HostPort } from '../../framework/hostPortInfo';
import type { FilterPlugin, PreFilterPlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';

export const NODE_PORTS = 'NodePorts';
/** Kubernetes' reason for a node whose host ports the pod would collide with. */
export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
const STATE_KEY = 'PreFilter' + NODE_PORTS;

/**
 * Filters out nodes where a host port the pod asks for (same protocol, same host IP or the
 * wildcard 0.0.0.0 on either side) is already taken by a pod on the node.
 */
export class NodePorts implements PreFilterPlugin, FilterPlugin {
  readonly name = NODE_PORTS;

  /** Skip for a pod without host ports: its Filter has nothing to check. */
  preFilter(state: CycleState, pod: Pod): Status | undefined {
    const ports = podHostPorts(pod);
    state.write(STATE_KEY, ports);
    return ports.length === 0 ? new Status(Code.Skip) : undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
    const wanted = state.read<HostPort[]>(STATE_KEY) ?? podHostPorts(pod);
    if (wanted.length === 0 || nodeInfo.usedPorts.size === 0) return undefined;
    for (const p of wanted)
      if (nodeInfo.usedPorts.conflicts(p)) return Status.unschedulable(ERR_REASON_NODE_PORTS);
    return undefined;
  }
}
