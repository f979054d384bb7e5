import type { Taint } from '../../kinds/core/node';
import type { Toleration } from '../../kinds/core/toleration';

/** Kubernetes' ToleratesTaint: effect (empty matches all), key (empty matches all), then Exists or Equal. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== (taint.key ?? '')) return false;
  switch (toleration.operator ?? '') {
    case 'Exists':
      return true;
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** Whether any of the tolerations tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[] | undefined,
  taint: Taint,
): boolean {
  if (!tolerations) return false;
  for (let i = 0; i < tolerations.length; i++) if (toleratesTaint(tolerations[i]!, taint)) return true;
  return false;
}

/** The first taint accepted by `filter` that no toleration tolerates. */
export function findUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  filter: (t: Taint) => boolean,
): Taint | undefined {
  if (!taints) return undefined;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i]!;
    if (filter(t) && !tolerationsTolerateTaint(tolerations, t)) return t;
  }
  return undefined;
}

/** The taints Kubernetes puts on nodes for their conditions (well_known_taints.go). */
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
