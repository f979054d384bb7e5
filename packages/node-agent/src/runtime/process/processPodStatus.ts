import { formatTime, type Pod, type PodStatus } from '@orch/api';
import { podConditions, simulatedImageID, type PodRunContext } from '../podTimeline';
import { limitTerminationMessages } from './terminationMessage';

type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];
export type ContainerState = NonNullable<ContainerStatus['state']>;

/** What the process runtime knows of one container of a pod. */
export interface ContainerRunState {
  name: string;
  image: string;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
  /** Set once the container ran. */
  containerID?: string;
  ready: boolean;
  started: boolean;
}

function succeeded(c: ContainerRunState): boolean {
  return c.state.terminated?.exitCode === 0;
}

/** Whether every init container succeeded. */
export function initialized(init: readonly ContainerRunState[]): boolean {
  return init.every(succeeded);
}

/**
 * The pod's phase from its containers, as the kubelet's getPhase: Pending until every init
 * container succeeded (Failed when one failed and restartPolicy is Never) or while a container has
 * not started yet; Running while one runs; once all stopped: Running with restartPolicy Always,
 * Succeeded when all exited 0, else Failed with Never and Running (restarting) with OnFailure.
 */
export function podPhase(
  pod: Pod,
  init: readonly ContainerRunState[],
  app: readonly ContainerRunState[],
): string {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (!initialized(init)) {
    const failed = init.some((c) => (c.state.terminated?.exitCode ?? 0) !== 0);
    return failed && policy === 'Never' ? 'Failed' : 'Pending';
  }
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let ok = 0;
  for (const c of app) {
    if (c.state.running) running++;
    else if (c.state.terminated) {
      stopped++;
      if (c.state.terminated.exitCode === 0) ok++;
    } else if (c.lastState.terminated) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  if (policy === 'Always') return 'Running';
  if (stopped === ok) return 'Succeeded';
  return policy === 'Never' ? 'Failed' : 'Running';
}

function containerStatus(c: ContainerRunState): ContainerStatus {
  return {
    name: c.name,
    image: c.image,
    imageID: c.containerID ? simulatedImageID(c.image) : '',
    ...(c.containerID ? { containerID: c.containerID } : {}),
    ready: c.ready,
    started: c.started,
    restartCount: c.restartCount,
    state: structuredClone(c.state),
    lastState: structuredClone(c.lastState),
  } as ContainerStatus;
}

/** The phase of a deleted pod whose processes stopped: Failed when one of them failed. */
function stoppedPhase(all: readonly ContainerRunState[]): string {
  const failed = all.some(
    (c) =>
      (c.state.terminated?.exitCode ?? 0) !== 0 ||
      (!c.state.terminated && (c.lastState.terminated?.exitCode ?? 0) !== 0),
  );
  return failed ? 'Failed' : 'Succeeded';
}

/**
 * The status of a pod whose containers run as processes, conditions stamped `now`; `stopped` for a
 * deleted pod whose processes were stopped (phase Succeeded, or Failed when a container failed).
 */
export function processPodStatus(
  pod: Pod,
  init: readonly ContainerRunState[],
  app: readonly ContainerRunState[],
  ctx: PodRunContext,
  now: number,
  stopped = false,
): PodStatus {
  const phase = stopped ? stoppedPhase([...init, ...app]) : podPhase(pod, init, app);
  const containerStatuses = app.map(containerStatus);
  const initContainerStatuses = init.map(containerStatus);
  const status = {
    ...(pod.status ?? {}),
    phase,
    conditions: podConditions(pod, phase, containerStatuses, initialized(init), now),
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    podIP: ctx.podIP,
    podIPs: [{ ip: ctx.podIP }],
    startTime: formatTime(ctx.acceptedAt),
    containerStatuses,
    ...(initContainerStatuses.length > 0 ? { initContainerStatuses } : {}),
  } as PodStatus;
  limitTerminationMessages(status);
  return status;
}
