import type { ColumnDeclaration } from '../../schema/kind';
import { ageColumn, nameColumn, shortHumanDuration } from '../columns';
import type { Pod } from './pod';

/** The reason Kubernetes' node controller gives pods on an unreachable node. */
const NODE_LOST_REASON = 'NodeLost';

interface PodSummary {
  ready: string;
  status: string;
  /** The restart count, then the time since the last restart in parentheses once there was one. */
  restarts: string;
}

type ContainerStatusLike = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** When the container last terminated (its previous run's end), in ms; undefined when unknown. */
function lastTerminationOf(c: ContainerStatusLike): number | undefined {
  const finished = c.lastState?.terminated?.finishedAt;
  if (!finished) return undefined;
  const ms = Date.parse(finished);
  return Number.isNaN(ms) ? undefined : ms;
}

const later = (a: number | undefined, b: number | undefined): number | undefined =>
  b === undefined ? a : a === undefined || a < b ? b : a;

/**
 * The READY, STATUS and RESTARTS cells of `kubectl get pods`, computed as Kubernetes' server printer
 * (printPod) does: the first init container that has not succeeded decides the status while
 * initializing; otherwise the last container with a waiting or terminated reason wins. Sidecars
 * (init containers with restartPolicy Always) count among the containers once started, and their
 * restarts count with the app containers' once the pod is initialized.
 */
export function summarizePod(pod: Pod, now: Date = new Date()): PodSummary {
  const spec = pod.spec;
  const status = pod.status ?? {};
  const sidecars = new Set(
    (spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  const total = (spec?.containers?.length ?? 0) + sidecars.size;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: number | undefined;
  let lastSidecarRestart: number | undefined;
  let reason = status.phase ?? '';
  if (status.reason) reason = status.reason;
  if (status.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    const sidecar = sidecars.has(c.name ?? '');
    restarts += c.restartCount ?? 0;
    lastRestart = later(lastRestart, lastTerminationOf(c));
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, lastTerminationOf(c));
    }
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (terminated) {
      if (!terminated.reason) {
        reason = terminated.signal
          ? `Init:Signal:${terminated.signal}`
          : `Init:ExitCode:${terminated.exitCode ?? 0}`;
      } else {
        reason = `Init:${terminated.reason}`;
      }
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${spec?.initContainers?.length ?? 0}`;
    }
    initializing = true;
    break;
  }

  const initialized = (status.conditions ?? []).find((c) => c.type === 'Initialized')?.status === 'True';
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount ?? 0;
      lastRestart = later(lastRestart, lastTerminationOf(c));
      const waiting = c.state?.waiting;
      const terminated = c.state?.terminated;
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated)
        reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata?.deletionTimestamp && status.reason === NODE_LOST_REASON) reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp) reason = 'Terminating';

  const restartsCell =
    restarts !== 0 && lastRestart !== undefined
      ? `${restarts} (${shortHumanDuration(now.getTime() - lastRestart)} ago)`
      : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsCell };
}

/**
 * The conditions of a pod's table row: Completed, with the phase as reason, once the pod succeeded
 * or failed (none otherwise).
 */
export function podRowConditions(
  pod: Pod,
): { type: string; status: string; reason: string; message: string }[] {
  switch (pod.status?.phase) {
    case 'Succeeded':
      return [
        {
          type: 'Completed',
          status: 'True',
          reason: 'Succeeded',
          message: 'The pod has completed successfully.',
        },
      ];
    case 'Failed':
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    default:
      return [];
  }
}

/** `<none>` for an empty cell, as Kubernetes prints it. */
function orNone(value: string | undefined): string {
  return value ? value : '<none>';
}

/** Readiness gates whose condition is True, over the number of gates ("<none>" without gates). */
export function readinessGatesCell(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  let trueCount = 0;
  for (const gate of gates) {
    const condition = conditions.find((c) => c.type === gate.conditionType);
    if (condition?.status === 'True') trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

/** Names and images of containers, each joined with commas (Kubernetes' layoutContainerCells). */
export function layoutContainerCells(containers: readonly { name: string; image?: string }[] | undefined): {
  names: string;
  images: string;
} {
  const list = containers ?? [];
  return { names: list.map((c) => c.name).join(','), images: list.map((c) => c.image ?? '').join(',') };
}

/** A label map as `k=v` pairs sorted by key and joined with commas; `<none>` when empty (labels.FormatLabels). */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

export const podColumns: readonly ColumnDeclaration<Pod>[] = [
  nameColumn(),
  {
    name: 'Ready',
    type: 'string',
    description: 'The aggregate readiness state of this pod for accepting traffic.',
    cell: (pod, now) => summarizePod(pod, now).ready,
  },
  {
    name: 'Status',
    type: 'string',
    description: 'The aggregate status of the containers in this pod.',
    cell: (pod, now) => summarizePod(pod, now).status,
  },
  {
    name: 'Restarts',
    type: 'string',
    description: "Restarts of the pod's containers, then how long ago the last one was.",
    cell: (pod, now) => summarizePod(pod, now).restarts,
  },
  ageColumn(),
  {
    name: 'IP',
    type: 'string',
    priority: 1,
    description: 'IP address allocated to the pod.',
    cell: (pod) => orNone(pod.status?.podIPs?.[0]?.ip),
  },
  {
    name: 'Node',
    type: 'string',
    priority: 1,
    description: 'Node the pod is bound to.',
    cell: (pod) => orNone(pod.spec?.nodeName),
  },
  {
    name: 'Nominated Node',
    type: 'string',
    priority: 1,
    description: 'Node this pod preempted other pods on, while waiting to be scheduled.',
    cell: (pod) => orNone(pod.status?.nominatedNodeName),
  },
  {
    name: 'Readiness Gates',
    type: 'string',
    priority: 1,
    description: 'Extra conditions required for the pod to be ready.',
    cell: readinessGatesCell,
  },
];
