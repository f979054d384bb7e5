import type { Node, Taint } from '@orch/api';
import { formatTime } from '@orch/client';

/** Set by the kubelet with an external cloud provider until the cloud-node controller initializes the node. */
export const UNINITIALIZED_TAINT_KEY = 'node.cloudprovider.kubernetes.io/uninitialized';
/** Set by the cloud-node-lifecycle controller while a not-ready node's instance is shut down. */
export const SHUTDOWN_TAINT_KEY = 'node.cloudprovider.kubernetes.io/shutdown';

type NodeCondition = NonNullable<NonNullable<Node['status']>['conditions']>[number];

export function nodeCondition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

/** Whether the node's Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return nodeCondition(node, 'Ready')?.status === 'True';
}

export function hasTaint(node: Node, key: string): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === key);
}

/** The node with a NoSchedule taint of `key` added (stamped with the time it was added). */
export function withTaint(node: Node, key: string, now: number): Node {
  const taint = { key, effect: 'NoSchedule', timeAdded: formatTime(now) } as Taint;
  return { ...node, spec: { ...node.spec, taints: [...(node.spec?.taints ?? []), taint] } };
}

/** The node without taints of `key`. */
export function withoutTaint(node: Node, key: string): Node {
  const taints = (node.spec?.taints ?? []).filter((t) => t.key !== key);
  const { taints: _old, ...spec } = node.spec ?? {};
  return { ...node, spec: taints.length ? { ...spec, taints } : spec };
}
