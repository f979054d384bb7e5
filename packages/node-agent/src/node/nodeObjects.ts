import { createHash } from 'node:crypto';
import {
  formatMicroTime,
  formatTime,
  parseQuantity,
  PROVIDED_NODE_IP_ANNOTATION,
  type Lease,
  type Node,
  type Taint,
} from '@orch/api';
import { nodeInternalIP, nodePodCIDR } from './addresses';

/** Namespace of the node leases. */
export const NODE_LEASE_NAMESPACE = 'orch-node-lease';
/** The runtime a simulated node reports. */
export const SIMULATED_RUNTIME_VERSION = 'orch-sim://1.0';
/** Port the kubelet endpoint is advertised on. */
export const KUBELET_PORT = 10250;

/** The taint nodes of an external cloud provider are registered with until the cloud initializes them. */
export const UNINITIALIZED_TAINT: Taint = {
  key: 'node.cloudprovider.kubernetes.io/uninitialized',
  value: 'true',
  effect: 'NoSchedule',
} as Taint;

/** Everything that makes one simulated node. */
export interface SimulatedNode {
  name: string;
  index: number;
  labels: Record<string, string>;
  taints: Taint[];
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
  internalIP: string;
  podCIDR: string;
  /** Version string reported as kubeletVersion and kubeProxyVersion. */
  version: string;
  /** Changes each time the agent starts, as a node's boot ID does on reboot. */
  bootID: string;
  /** The addresses are the cloud's once registered (--cloud-provider=external). */
  externalCloudProvider: boolean;
  /**
   * --node-ip under an external cloud provider: announced in the provided-node-ip annotation, as the
   * kubelet does, for the cloud controller manager to keep that address.
   */
  providedNodeIP?: string;
  /** The port of the agent's server, reported as the kubelet endpoint. */
  kubeletPort: number;
  /** The Hostname address (the node's name when it has none of its own). */
  hostname?: string;
  /** What status.nodeInfo says of the node's system and container runtime. */
  system: NodeSystem;
}

/** The node's kernel, OS image and container runtime, as status.nodeInfo reports them. */
export interface NodeSystem {
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
}

/** What a simulated node reports of its system. */
export const SIMULATED_SYSTEM: NodeSystem = {
  kernelVersion: '6.1.0-orch-sim',
  osImage: 'orch simulated node',
  containerRuntimeVersion: SIMULATED_RUNTIME_VERSION,
};

export interface SimulatedNodeOptions {
  labels: Record<string, string>;
  taints: Taint[];
  capacity: Record<string, string>;
  reserved: Record<string, string>;
  version: string;
  bootID: string;
  externalCloudProvider?: boolean;
  /** --node-ip, when given. */
  nodeIP?: string;
  /** Default KUBELET_PORT. */
  kubeletPort?: number;
  /**
   * The host the node's server is reached on, instead of the simulated addresses: its InternalIP
   * and, where containers really run (the process runtime), its Hostname address.
   */
  host?: { ip: string; hostname?: string };
  /** The system reported in status.nodeInfo; a simulated one by default. */
  system?: NodeSystem;
}

type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];
type NodeStatus = NonNullable<Node['status']>;

/** Capacity minus reserved resources, never below zero (the kubelet's allocatable). */
export function allocatable(
  capacity: Record<string, string>,
  reserved: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(capacity)) {
    const r = reserved[name];
    if (r === undefined) {
      out[name] = value;
      continue;
    }
    const left = parseQuantity(value).sub(parseQuantity(r));
    out[name] = left.sign() < 0 ? '0' : left.toString();
  }
  return out;
}

/** The description of the `index`-th simulated node called `name`. */
export function simulatedNode(name: string, index: number, opts: SimulatedNodeOptions): SimulatedNode {
  return {
    name,
    index,
    labels: {
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'node.kubernetes.io/instance-type': 'simulated',
      // The kubelet's beta labels, still read by older tools.
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
      ...opts.labels,
    },
    taints: opts.taints,
    capacity: opts.capacity,
    allocatable: allocatable(opts.capacity, opts.reserved),
    internalIP: opts.host?.ip ?? nodeInternalIP(index),
    podCIDR: nodePodCIDR(index),
    version: opts.version,
    bootID: opts.bootID,
    externalCloudProvider: opts.externalCloudProvider ?? false,
    ...(opts.externalCloudProvider && opts.nodeIP ? { providedNodeIP: opts.nodeIP } : {}),
    kubeletPort: opts.kubeletPort ?? KUBELET_PORT,
    ...(opts.host?.hostname ? { hostname: opts.host.hostname } : {}),
    system: opts.system ?? SIMULATED_SYSTEM,
  };
}

/** 32 stable hex digits derived from a name. */
function stableHex(name: string, salt: string): string {
  return createHash('sha256').update(`${salt}/${name}`).digest('hex').slice(0, 32);
}

function asUUID(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The Node object a simulated node registers (status is posted separately through nodes/status). */
export function nodeObject(node: SimulatedNode): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: node.name,
      labels: { ...node.labels },
      annotations: {
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        ...providedNodeIPAnnotation(node),
      },
    },
    spec: {
      podCIDR: node.podCIDR,
      podCIDRs: [node.podCIDR],
      ...(node.taints.length > 0 ? { taints: node.taints.map((t) => ({ ...t })) } : {}),
    },
  } as Node;
}

/** The provided-node-ip annotation of a node given --node-ip under an external cloud provider. */
function providedNodeIPAnnotation(node: SimulatedNode): Record<string, string> {
  return node.providedNodeIP ? { [PROVIDED_NODE_IP_ANNOTATION]: node.providedNodeIP } : {};
}

/**
 * Brings an existing Node in line with the agent's description, as the kubelet reconciles on
 * re-registration: its labels and taints are added (but not the uninitialized taint, which only a
 * new node gets); others' labels and taints are kept. The provided-node-ip annotation follows
 * --node-ip: set to it, or removed without it.
 */
export function reconcileNode(existing: Node, node: SimulatedNode): Node {
  const taints = [...(existing.spec?.taints ?? [])];
  for (const t of node.taints) {
    if (t.key === UNINITIALIZED_TAINT.key) continue;
    if (!taints.some((e) => e.key === t.key && e.effect === t.effect)) taints.push({ ...t });
  }
  return {
    ...existing,
    metadata: {
      ...existing.metadata,
      labels: { ...existing.metadata?.labels, ...node.labels },
      ...reconciledAnnotations(existing.metadata?.annotations, node),
    },
    spec: {
      ...existing.spec,
      podCIDR: existing.spec?.podCIDR || node.podCIDR,
      podCIDRs: existing.spec?.podCIDRs?.length ? existing.spec.podCIDRs : [node.podCIDR],
      ...(taints.length > 0 ? { taints } : {}),
    },
  } as Node;
}

/** The existing annotations with provided-node-ip brought in line (none left empty). */
function reconciledAnnotations(
  existing: Record<string, string> | undefined,
  node: SimulatedNode,
): { annotations?: Record<string, string> } {
  const { [PROVIDED_NODE_IP_ANNOTATION]: _previous, ...others } = existing ?? {};
  const annotations = { ...others, ...providedNodeIPAnnotation(node) };
  return Object.keys(annotations).length > 0 || existing !== undefined ? { annotations } : {};
}

const CONDITIONS: readonly Omit<NodeCondition, 'lastHeartbeatTime' | 'lastTransitionTime'>[] = [
  {
    type: 'MemoryPressure',
    status: 'False',
    reason: 'KubeletHasSufficientMemory',
    message: 'kubelet has sufficient memory available',
  },
  {
    type: 'DiskPressure',
    status: 'False',
    reason: 'KubeletHasNoDiskPressure',
    message: 'kubelet has no disk pressure',
  },
  {
    type: 'PIDPressure',
    status: 'False',
    reason: 'KubeletHasSufficientPID',
    message: 'kubelet has sufficient PID available',
  },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
];

/**
 * The node's status at `now`: every condition heartbeats now; a condition keeps its
 * lastTransitionTime from `previous` unless its status changed.
 */
export function nodeStatus(
  node: SimulatedNode,
  now: number,
  previous?: readonly NodeCondition[],
): NodeStatus {
  const heartbeat = formatTime(now);
  const conditions = CONDITIONS.map((c) => {
    const old = previous?.find((p) => p.type === c.type);
    const lastTransitionTime =
      old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : heartbeat;
    return { ...c, lastHeartbeatTime: heartbeat, lastTransitionTime };
  });
  return {
    capacity: { ...node.capacity },
    allocatable: { ...node.allocatable },
    conditions,
    addresses: [
      { type: 'InternalIP', address: node.internalIP },
      { type: 'Hostname', address: node.hostname ?? node.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: node.kubeletPort } },
    nodeInfo: {
      machineID: stableHex(node.name, 'machine-id'),
      systemUUID: asUUID(stableHex(node.name, 'system-uuid')),
      bootID: node.bootID,
      kernelVersion: node.system.kernelVersion,
      osImage: node.system.osImage,
      containerRuntimeVersion: node.system.containerRuntimeVersion,
      kubeletVersion: node.version,
      kubeProxyVersion: node.version,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  } as NodeStatus;
}

/** The status without its heartbeat times, to tell a real change from a heartbeat. */
export function statusWithoutHeartbeats(status: NodeStatus): string {
  return JSON.stringify({
    ...status,
    conditions: status.conditions?.map(({ lastHeartbeatTime: _h, ...rest }) => rest),
  });
}

/** The node's Lease renewed at `now`, owned by its Node as the kubelet's is. */
export function nodeLease(node: SimulatedNode, durationSeconds: number, now: number, owner?: Node): Lease {
  const uid = owner?.metadata?.uid;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node.name,
      namespace: NODE_LEASE_NAMESPACE,
      ...(uid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid }] } : {}),
    },
    spec: {
      holderIdentity: node.name,
      leaseDurationSeconds: durationSeconds,
      renewTime: formatMicroTime(now),
    },
  } as Lease;
}
