/**
 * The simulated container runtime's rules: what a pod bound to a simulated node looks like at any
 * moment, as a pure function of the pod, when the agent accepted it and the clock.
 *
 * - The pod stays Pending (containers waiting ContainerCreating, or PodInitializing when it has init
 *   containers) for `--pod-start-latency`, then its init containers complete at once (exit code 0,
 *   reason Completed) and its containers run: phase Running, ready and started. Sidecars (init
 *   containers with restartPolicy Always) run beside the containers, ready, until they finish.
 * - Containers of a pod with restartPolicy Never or OnFailure run for `--pod-run-duration`, then
 *   exit with code 0 (reason Completed): the pod Succeeds, with Ready=False reason PodCompleted.
 * - Containers of a pod with restartPolicy Always run until the pod is deleted.
 * - The annotation `orch.io/simulated-exit-code: "<n>"` makes the containers exit with code n after
 *   `--pod-run-duration` (reason Error when n != 0), whatever the restart policy. A pod with
 *   restartPolicy Never then Fails; with OnFailure (n != 0) or Always the containers restart after
 *   Kubernetes' crash back-off (10 s after the first exit, doubling up to 5 min): state waiting
 *   CrashLoopBackOff in between, restartCount counting the restarts, lastState the last exit.
 * - All containers of a pod run in lockstep.
 * - A pod whose volumes are not mounted yet (claims not bound, attachable volumes not attached)
 *   stays Pending until they are (`startAfter`).
 */
import { createHash } from 'node:crypto';
import { formatTime, setCondition, type Pod, type PodCondition, type PodStatus } from '@orch/api';

export const SIMULATED_EXIT_CODE_ANNOTATION = 'orch.io/simulated-exit-code';
export const CRASH_BACKOFF_INITIAL_MS = 10_000;
export const CRASH_BACKOFF_MAX_MS = 300_000;

type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];

export interface PodTimelineOptions {
  startLatencyMs: number;
  runDurationMs: number;
}

/** What the agent knows about a pod besides the pod itself. */
export interface PodRunContext {
  /** When the agent accepted the pod (its startTime). */
  acceptedAt: number;
  podIP: string;
  hostIP: string;
  /** The containers start no earlier (when the pod's volumes were mounted; Infinity while they are not). */
  startAfter?: number;
}

export interface SimulatedPodStatus {
  status: PodStatus;
  /** When the status changes next by itself; undefined when it never does. */
  nextAt?: number;
}

/** The exit code requested by the annotation; undefined when absent or not an integer. */
export function simulatedExitCode(pod: Pod): number | undefined {
  const raw = pod.metadata?.annotations?.[SIMULATED_EXIT_CODE_ANNOTATION];
  if (raw === undefined || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
  return Number(raw);
}

/** Back-off before the restart that follows the `exits`-th exit (1-based): 10 s doubling up to 5 min. */
export function crashBackoffMs(exits: number): number {
  return Math.min(CRASH_BACKOFF_MAX_MS, CRASH_BACKOFF_INITIAL_MS * 2 ** Math.min(Math.max(exits - 1, 0), 30));
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `docker-pullable://<image>@sha256:<digest>`, the digest a hash of the image name. */
export function simulatedImageID(image: string): string {
  return `docker-pullable://${image}@sha256:${sha256Hex(`image:${image}`)}`;
}

/** `containerd://<64 hex>`, stable for a pod, container and run. */
export function simulatedContainerID(podUID: string, container: string, run: number): string {
  return `containerd://${sha256Hex(`container:${podUID}/${container}/${run}`)}`;
}

interface Run {
  index: number;
  start: number;
  /** Undefined for a run that never ends. */
  end?: number;
}

type Moment =
  | { kind: 'pending'; next: number }
  | { kind: 'running'; run: Run; previous?: Run }
  | { kind: 'backoff'; run: Run; next: number }
  | { kind: 'terminated'; run: Run };

/** When the pod's containers start: --pod-start-latency after its acceptance, once its volumes are mounted. */
function containersStartAt(ctx: PodRunContext, opts: PodTimelineOptions): number {
  return Math.max(ctx.acceptedAt + opts.startLatencyMs, ctx.startAfter ?? -Infinity);
}

/** Where the pod's containers are at `now`. */
function momentAt(pod: Pod, ctx: PodRunContext, opts: PodTimelineOptions, now: number): Moment {
  const start = containersStartAt(ctx, opts);
  if (now < start) return { kind: 'pending', next: start };
  const code = simulatedExitCode(pod);
  const policy = pod.spec?.restartPolicy ?? 'Always';
  const exits = policy !== 'Always' || code !== undefined;
  const exitCode = code ?? 0;
  const restarts = policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
  let previous: Run | undefined;
  let run: Run = { index: 0, start, ...(exits ? { end: start + opts.runDurationMs } : {}) };
  for (;;) {
    if (run.end === undefined || now < run.end)
      return { kind: 'running', run, ...(previous ? { previous } : {}) };
    if (!restarts) return { kind: 'terminated', run };
    const next = run.end + crashBackoffMs(run.index + 1);
    if (now < next) return { kind: 'backoff', run, next };
    previous = run;
    run = { index: run.index + 1, start: next, end: next + opts.runDurationMs };
  }
}

function terminated(
  pod: Pod,
  name: string,
  run: Run,
  exitCode: number,
): NonNullable<ContainerStatus['state']> {
  return {
    terminated: {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt: formatTime(run.start),
      finishedAt: formatTime(run.end ?? run.start),
      containerID: simulatedContainerID(pod.metadata?.uid ?? '', name, run.index),
    },
  };
}

/** A pod as the kubelet names it in messages: `name_namespace(uid)`. */
export function podDesc(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}(${pod.metadata?.uid ?? ''})`;
}

/** The containers' statuses at a moment. */
function containerStatuses(pod: Pod, moment: Moment, exitCode: number): ContainerStatus[] {
  const init = (pod.spec?.initContainers ?? []).length > 0;
  return (pod.spec?.containers ?? []).map((c) => {
    const base = { name: c.name, image: c.image ?? '' };
    const ids = (run: Run) => ({
      imageID: simulatedImageID(c.image ?? ''),
      containerID: simulatedContainerID(pod.metadata?.uid ?? '', c.name, run.index),
    });
    switch (moment.kind) {
      case 'pending':
        return {
          ...base,
          imageID: '',
          ready: false,
          started: false,
          restartCount: 0,
          state: { waiting: { reason: init ? 'PodInitializing' : 'ContainerCreating' } },
          lastState: {},
        };
      case 'running':
        return {
          ...base,
          ...ids(moment.run),
          ready: true,
          started: true,
          restartCount: moment.run.index,
          state: { running: { startedAt: formatTime(moment.run.start) } },
          lastState: moment.previous ? terminated(pod, c.name, moment.previous, exitCode) : {},
        };
      case 'backoff': {
        const delay = Math.round((moment.next - moment.run.end!) / 1000);
        return {
          ...base,
          ...ids(moment.run),
          ready: false,
          started: false,
          restartCount: moment.run.index,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off ${delay === 300 ? '5m0s' : `${delay}s`} restarting failed container=${c.name} pod=${podDesc(pod)}`,
            },
          },
          lastState: terminated(pod, c.name, moment.run, exitCode),
        };
      }
      case 'terminated':
        return {
          ...base,
          ...ids(moment.run),
          ready: false,
          started: false,
          restartCount: moment.run.index,
          state: terminated(pod, c.name, moment.run, exitCode),
          lastState: {},
        };
    }
  }) as ContainerStatus[];
}

function initContainerStatuses(pod: Pod, moment: Moment, start: number): ContainerStatus[] {
  return (pod.spec?.initContainers ?? []).map((c) => {
    const base = { name: c.name, image: c.image ?? '', restartCount: 0, lastState: {} };
    if (moment.kind === 'pending') {
      return {
        ...base,
        imageID: '',
        ready: false,
        started: false,
        state: { waiting: { reason: 'PodInitializing' } },
      };
    }
    const ids = {
      imageID: simulatedImageID(c.image ?? ''),
      containerID: simulatedContainerID(pod.metadata?.uid ?? '', c.name, 0),
    };
    // a sidecar (restartPolicy Always) starts and keeps running beside the containers; it stops
    // when they finish
    if (c.restartPolicy === 'Always') {
      if (moment.kind === 'terminated') {
        const run = { index: 0, start, end: moment.run.end ?? start };
        return { ...base, ...ids, ready: false, started: false, state: terminated(pod, c.name, run, 0) };
      }
      return {
        ...base,
        ...ids,
        ready: true,
        started: true,
        state: { running: { startedAt: formatTime(start) } },
      };
    }
    const run = { index: 0, start, end: start };
    return { ...base, ...ids, ready: true, started: false, state: terminated(pod, c.name, run, 0) };
  }) as ContainerStatus[];
}

/** Why each of the pod's readiness gates holds it back (its condition missing or not True). */
function readinessGateProblems(pod: Pod, conditions: readonly PodCondition[]): string[] {
  const problems: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const found = conditions.find((c) => c.type === gate.conditionType);
    if (!found) {
      problems.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    } else if (found.status !== 'True') {
      problems.push(
        `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${found.status}`,
      );
    }
  }
  return problems;
}

/** The pod's conditions for its phase and containers, transitions stamped `now`. */
export function podConditions(
  pod: Pod,
  phase: string,
  containers: readonly ContainerStatus[],
  initDone: boolean,
  now: number,
  initContainers: readonly ContainerStatus[] = pod.status?.initContainerStatuses ?? [],
): PodCondition[] {
  const clock = () => now;
  const sidecars = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  // sidecars count among the containers that must be ready
  const unready = [
    ...initContainers.filter((c) => sidecars.has(c.name ?? '') && !c.ready),
    ...containers.filter((c) => !c.ready),
  ].map((c) => c.name);
  const pendingInit = initDone ? [] : (pod.spec?.initContainers ?? []).map((c) => c.name);
  type Cond = PodCondition & { type: string; status: string };
  let conditions = (pod.status?.conditions ?? []) as Cond[];
  const set = (c: Cond) => {
    conditions = setCondition(conditions, c, clock);
  };
  if (phase === 'Succeeded') {
    set({ type: 'Initialized', status: 'True', reason: 'PodCompleted' });
  } else if (pendingInit.length > 0) {
    set({
      type: 'Initialized',
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: `containers with incomplete status: [${pendingInit.join(' ')}]`,
    });
  } else {
    set({ type: 'Initialized', status: 'True' });
  }
  // the pod is ready when its containers are and every readiness gate's condition is True
  const gates = phase === 'Succeeded' || unready.length > 0 ? [] : readinessGateProblems(pod, conditions);
  for (const type of ['Ready', 'ContainersReady']) {
    if (phase === 'Succeeded') set({ type, status: 'False', reason: 'PodCompleted' });
    else if (unready.length > 0) {
      set({
        type,
        status: 'False',
        reason: 'ContainersNotReady',
        message: `containers with unready status: [${unready.join(' ')}]`,
      });
    } else if (type === 'Ready' && gates.length > 0) {
      set({ type, status: 'False', reason: 'ReadinessGatesNotReady', message: gates.join(', ') });
    } else set({ type, status: 'True' });
  }
  set({ type: 'PodScheduled', status: 'True' });
  return conditions;
}

/** The status of a pod at `now`, and when it next changes by itself. */
export function simulatePodStatus(
  pod: Pod,
  ctx: PodRunContext,
  opts: PodTimelineOptions,
  now: number,
): SimulatedPodStatus {
  const moment = momentAt(pod, ctx, opts, now);
  const exitCode = simulatedExitCode(pod) ?? 0;
  const start = containersStartAt(ctx, opts);
  const containers = containerStatuses(pod, moment, exitCode);
  const initContainers = initContainerStatuses(pod, moment, start);
  let phase = moment.kind === 'pending' ? 'Pending' : 'Running';
  if (moment.kind === 'terminated') phase = exitCode === 0 ? 'Succeeded' : 'Failed';
  const started = moment.kind !== 'pending';
  const status: PodStatus = {
    ...(pod.status ?? {}),
    phase,
    conditions: podConditions(pod, phase, containers, started, now, initContainers),
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    startTime: formatTime(ctx.acceptedAt),
    containerStatuses: containers,
    ...(initContainers.length > 0 ? { initContainerStatuses: initContainers } : {}),
    ...(started ? { podIP: ctx.podIP, podIPs: [{ ip: ctx.podIP }] } : {}),
  } as PodStatus;
  if (!started) {
    delete status.podIP;
    delete status.podIPs;
  }
  let nextAt: number | undefined;
  if (moment.kind === 'pending' || moment.kind === 'backoff') nextAt = moment.next;
  else if (moment.kind === 'running') nextAt = moment.run.end;
  return { status, ...(nextAt !== undefined && Number.isFinite(nextAt) ? { nextAt } : {}) };
}

/**
 * The status of a pod whose containers were stopped at `now` on deletion: every container that ran
 * is terminated with exit code 0 (reason Completed); the pod Succeeded.
 */
export function stoppedPodStatus(pod: Pod, now: number): PodStatus {
  const containers = (pod.status?.containerStatuses ?? []).map((c) => {
    const running = c.state?.running;
    if (!running) return { ...c, ready: false, started: false };
    return {
      ...c,
      ready: false,
      started: false,
      state: {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: running.startedAt,
          finishedAt: formatTime(now),
          ...(c.containerID ? { containerID: c.containerID } : {}),
        },
      },
    };
  }) as ContainerStatus[];
  return {
    ...(pod.status ?? {}),
    phase: 'Succeeded',
    containerStatuses: containers,
    conditions: podConditions(pod, 'Succeeded', containers, true, now),
  } as PodStatus;
}
