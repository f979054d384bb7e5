import { formatTime, parseTime, type Node } from '@orch/api';
import { nodeCondition, type NodeCondition } from './conditionTaints';

type NodeStatus = NonNullable<Node['status']>;

/** What the controller last saw of a node, on its own clock (Kubernetes' nodeHealthData). */
export interface NodeHealth {
  /** The node's status as last seen (or as last written by the controller). */
  status: NodeStatus | undefined;
  /** When the controller last saw a new heartbeat: a new Ready lastHeartbeatTime or a renewed Lease. */
  probeTimestamp: number;
  /** When the controller last saw the Ready condition change. */
  readyTransitionTimestamp: number;
  /** The renewTime of the node's Lease last seen. */
  leaseRenewTime?: string;
}

/** The outcome of looking at one node (Kubernetes' tryUpdateNodeHealth). */
export interface HealthObservation {
  /** The health to keep when nothing is written, or when writing `statusUpdate` fails. */
  health: NodeHealth;
  /** The grace period that applied: the startup one for a node that never posted a Ready condition. */
  gracePeriodMs: number;
  /** The Ready condition as the node had it (a made-up Unknown one when it has none). */
  observedReady: NodeCondition;
  /** The Ready condition after marking the node Unknown, if it has one. */
  currentReady: NodeCondition | undefined;
  /** The status to write (nodes/status) when the node went silent; undefined when nothing changes. */
  statusUpdate?: NodeStatus;
  /** The health to keep once `statusUpdate` is written. */
  healthAfterUpdate?: NodeHealth;
}

/** The conditions a silent node has set to Unknown (NetworkUnavailable is the control plane's). */
export const CONDITIONS_MARKED_UNKNOWN = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

function time(s: string | undefined, fallback: number): number {
  if (!s) return fallback;
  try {
    return parseTime(s);
  } catch {
    return fallback;
  }
}

/** Whether renew time `a` is before `b` (MicroTime strings; a missing one is the earliest). */
function renewedBefore(a: string | undefined, b: string | undefined): boolean {
  if (!b) return false;
  if (!a) return true;
  const ta = time(a, 0);
  const tb = time(b, 0);
  return ta < tb || (ta === tb && a < b);
}

function sameCondition(a: NodeCondition | undefined, b: NodeCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    (a.lastHeartbeatTime ?? '') === (b.lastHeartbeatTime ?? '') &&
    (a.lastTransitionTime ?? '') === (b.lastTransitionTime ?? '')
  );
}

/**
 * Looks at a node at `now`: a Ready condition with a new lastHeartbeatTime, or a Lease renewed
 * since last seen, moves the probe timestamp to now. A node not heard from for the grace period
 * (--node-monitor-grace-period, or --node-startup-grace-period for a node that never posted a
 * Ready condition, counted from its creation) has Ready, MemoryPressure, DiskPressure and
 * PIDPressure set to Unknown: reason NodeStatusUnknown, message "Kubelet stopped posting node
 * status.", lastHeartbeatTime kept, lastTransitionTime now (conditions never posted are added
 * with reason NodeStatusNeverUpdated).
 */
export function observeNodeHealth(
  saved: NodeHealth | undefined,
  node: Node,
  leaseRenewTime: string | undefined,
  now: number,
  periods: { monitorGracePeriodMs: number; startupGracePeriodMs: number },
): HealthObservation {
  const created = time(node.metadata?.creationTimestamp, now);
  const currentReadyBefore = nodeCondition(node, 'Ready');
  let health: NodeHealth | undefined = saved && { ...saved };
  let gracePeriodMs: number;
  let observedReady: NodeCondition;
  if (!currentReadyBefore) {
    // Never posted: a made-up Unknown condition from the node's creation.
    const creation = node.metadata?.creationTimestamp;
    observedReady = {
      type: 'Ready',
      status: 'Unknown',
      ...(creation ? { lastHeartbeatTime: creation, lastTransitionTime: creation } : {}),
    };
    gracePeriodMs = periods.startupGracePeriodMs;
    if (health) health.status = node.status;
    else health = { status: node.status, probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    observedReady = { ...currentReadyBefore };
    gracePeriodMs = periods.monitorGracePeriodMs;
  }
  const savedReady = health?.status?.conditions?.find((c) => c.type === 'Ready');
  const savedLease = health?.leaseRenewTime;
  if (!health) {
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (!savedReady && currentReadyBefore) {
    // First seen with a Ready condition (or the controller restarted).
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (savedReady && !currentReadyBefore) {
    // The Ready condition was removed.
    health = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (
    savedReady &&
    currentReadyBefore &&
    (savedReady.lastHeartbeatTime ?? '') !== (currentReadyBefore.lastHeartbeatTime ?? '')
  ) {
    const transitioned =
      (savedReady.lastTransitionTime ?? '') !== (currentReadyBefore.lastTransitionTime ?? '');
    health = {
      status: node.status,
      probeTimestamp: now,
      readyTransitionTimestamp: transitioned ? now : health.readyTransitionTimestamp,
    };
  }
  if (leaseRenewTime && renewedBefore(savedLease, leaseRenewTime)) {
    health = { ...health, leaseRenewTime, probeTimestamp: now };
  } else if (savedLease && health.leaseRenewTime === undefined) {
    health = { ...health, leaseRenewTime: savedLease };
  }

  const result: HealthObservation = {
    health,
    gracePeriodMs,
    observedReady,
    currentReady: currentReadyBefore && { ...currentReadyBefore },
  };
  if (!(now > health.probeTimestamp + gracePeriodMs)) return result;

  const stamp = formatTime(now);
  const conditions: NodeCondition[] = (node.status?.conditions ?? []).map((c) => ({ ...c }));
  for (const type of CONDITIONS_MARKED_UNKNOWN) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        ...(node.metadata?.creationTimestamp ? { lastHeartbeatTime: node.metadata.creationTimestamp } : {}),
        lastTransitionTime: stamp,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = stamp;
    }
  }
  const currentReady = conditions.find((c) => c.type === 'Ready');
  result.currentReady = currentReady;
  if (sameCondition(currentReady, observedReady)) return result;
  const status = { ...node.status, conditions } as NodeStatus;
  result.statusUpdate = status;
  result.healthAfterUpdate = {
    status,
    probeTimestamp: health.probeTimestamp,
    readyTransitionTimestamp: now,
    leaseRenewTime: leaseRenewTime ?? health.leaseRenewTime,
  };
  return result;
}
