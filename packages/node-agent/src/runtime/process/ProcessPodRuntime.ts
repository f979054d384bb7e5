import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { connect } from 'node:net';
import * as path from 'node:path';
import { isPodTerminal, formatTime, parseTime, type Container, type Pod } from '@orch/api';
import { isConflict, isNotFound, type EventRecorder, type TypedClient } from '@orch/client';
import { errorMessage, type Logger } from '@orch/component-base';
import type { SimulatedNode } from '../../node/nodeObjects';
import type { Clock } from '../../scheduling/Clock';
import type { DueQueue } from '../../scheduling/DueQueue';
import type { PodVolumeGate } from '../../volume/VolumeManager';
import { CRASH_BACKOFF_MAX_MS, crashBackoffMs, podDesc, type PodRunContext } from '../podTimeline';
import { buildEnv, ContainerConfigError, invalidEnvKeysMessage, type EnvSources } from './buildEnv';
import { ContainerLog } from './ContainerLog';
import { ContainerProcess, type ContainerExit } from './ContainerProcess';
import { expandAll } from './expandEnv';
import { containerEvent } from '../containerEvent';
import type {
  ContainerAttach,
  ContainerExec,
  ContainerLogSource,
  PodPortForwarder,
  PodRunner,
  PodUsage,
  StreamRefusal,
} from '../PodRunner';
import { processPodUsage } from './processUsage';
import { execProcess } from './execProcess';
import { podName, POD_RETRY_MS, syncPodStatus, type StatusRecord } from '../syncPodStatus';
import { processPodStatus, type ContainerRunState } from './processPodStatus';
import { ProbeWorker, type ProbeKind, type ProbeTarget } from './probes';
import {
  FAILED_POST_START_HOOK,
  FAILED_PRE_STOP_HOOK,
  POST_START_FAILED_MESSAGE,
  POST_START_HOOK_ERROR,
  PRE_STOP_FAILED_MESSAGE,
  preStopGraceMs,
  runLifecycleHook,
} from './lifecycleHooks';
import {
  DEFAULT_TERMINATION_MESSAGE_PATH,
  readTerminationMessageFile,
  terminationMessage,
} from './terminationMessage';

/** The variable that tells a process where to write its termination message. */
export const TERMINATION_MESSAGE_PATH_ENV = 'ORCH_TERMINATION_MESSAGE_PATH';
/** PATH of a process when the agent has none (an image's usual one). */
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Why a container with neither command nor args cannot run. */
export const NO_COMMAND_MESSAGE =
  'container has neither command nor args: there is no image entrypoint to run in the process runtime';
/** Retry delay of a container whose configuration (env sources) cannot be read yet. */
const CONFIG_RETRY_MS = 10_000;
/** The kubelet's default terminationGracePeriodSeconds. */
const DEFAULT_GRACE_SECONDS = 30;

export interface ProcessPodRuntimeOptions {
  podClient: Pick<TypedClient<Pod>, 'get' | 'updateStatus' | 'delete'>;
  /** Where ConfigMaps and Secrets for env come from. */
  envSources: EnvSources;
  queue: DueQueue;
  clock: Clock;
  nodeFor: (nodeName: string) => SimulatedNode | undefined;
  logger: Logger;
  recorderFor?: (nodeName: string) => EventRecorder;
  /** The agent's directory: logs, termination messages and default working directories. */
  rootDir: string;
  /** Back-off before the restart after the n-th exit (Kubernetes' crash back-off by default). */
  backoffMs?: (exits: number) => number;
  /** Where a pod's start waits for its volumes; none: pods start at once. */
  volumes?: PodVolumeGate;
}

interface Run extends ContainerRunState {
  spec: Container;
  init: boolean;
  proc?: ContainerProcess;
  /** Settles once the current process's exit is accounted for. */
  exiting?: Promise<void>;
  /** Exits counted for the back-off. */
  exits: number;
  /** When the container (re)starts; undefined: as soon as it may. */
  restartAt?: number;
  /** The container cannot run as specified (no command): never started. */
  blocked?: boolean;
  probes: ProbeWorker[];
  /** Where the current run's hooks run. */
  target?: ProbeTarget;
  /** The current run's postStart hook is running: the container is not running yet. */
  postStarting?: boolean;
}

interface PodRecord extends StatusRecord {
  node: SimulatedNode;
  ctx: PodRunContext;
  init: Run[];
  app: Run[];
  /** The pod is being deleted: its processes are being stopped, none restarts. */
  deleting: boolean;
  /** Its processes stopped after the deletion. */
  stopped: boolean;
  /** A final phase was written: nothing more runs. */
  finished: boolean;
}

function formatBackoff(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${s % 60}s`;
}

/** The directory of a pod's containers under the agent's root: `pods/<namespace>_<name>_<uid>`. */
export function podDir(rootDir: string, pod: Pod): string {
  const m = pod.metadata;
  return path.join(rootDir, 'pods', `${m?.namespace ?? ''}_${m?.name ?? ''}_${m?.uid ?? ''}`);
}

/** The log of a container's run, in the CRI format: `pods/<ns>_<name>_<uid>/<container>/<restartCount>.log`. */
export function containerLogPath(rootDir: string, pod: Pod, container: string, restartCount: number): string {
  return path.join(podDir(rootDir, pod), container, `${restartCount}.log`);
}

/**
 * A container runtime that runs the containers of the pods bound to the agent's nodes as local
 * processes (one process group per container run; see ContainerProcess): init containers one after
 * the other, each to success, then the app containers; restarts per restartPolicy with Kubernetes'
 * crash back-off; logs, termination messages, probes and lifecycle hooks. Like PodRuntime, it is fed
 * by the pod informer and works on key `pod/<uid>` of the agent's DueQueue; status goes through PUT
 * pods/status. A deleted pod's containers run their preStop hooks and get SIGTERM, SIGKILL after
 * its grace period, and then the pod is deleted with grace period 0.
 */
export class ProcessPodRuntime implements PodRunner {
  private readonly records = new Map<string, PodRecord>();
  private shuttingDown = false;

  constructor(private readonly opts: ProcessPodRuntimeOptions) {}

  get size(): number {
    return this.records.size;
  }

  onPod(pod: Pod): void {
    const uid = pod.metadata?.uid;
    const nodeName = pod.spec?.nodeName;
    if (!uid || !nodeName || this.shuttingDown) return;
    let rec = this.records.get(uid);
    if (!rec) {
      const node = this.opts.nodeFor(nodeName);
      if (!node) return;
      if (isPodTerminal(pod) && !pod.metadata?.deletionTimestamp) return;
      rec = this.admit(uid, pod, node);
      this.records.set(uid, rec);
    } else {
      const a = pod.metadata?.resourceVersion;
      const b = rec.pod.metadata?.resourceVersion;
      const older = a && b && /^\d+$/.test(a) && /^\d+$/.test(b) && BigInt(a) < BigInt(b);
      if (!older) rec.pod = pod;
    }
    this.opts.queue.now(`pod/${uid}`);
  }

  /** A pod gone from the API: its processes are stopped. */
  onPodDeleted(pod: Pod): void {
    const uid = pod.metadata?.uid;
    if (uid) this.forget(uid);
  }

  async handle(uid: string): Promise<void> {
    const rec = this.records.get(uid);
    if (!rec || this.shuttingDown) return;
    const key = `pod/${uid}`;
    try {
      if (rec.pod.metadata?.deletionTimestamp) return await this.terminate(rec);
      if (rec.finished) return;
      const volumes = await this.opts.volumes?.waitForAttachAndMount(rec.pod);
      if (volumes && !volumes.ready) {
        await this.sync(rec);
        this.opts.queue.schedule(key, volumes.retryAt);
        return;
      }
      await this.reconcile(rec);
      await this.sync(rec);
      if (isPodTerminal(rec.pod) && this.runs(rec).every((c) => !c.proc)) {
        rec.finished = true;
        return;
      }
      const next = this.nextWake(rec);
      if (next !== undefined) this.opts.queue.schedule(key, next);
    } catch (err) {
      if (isNotFound(err)) return this.forget(uid);
      this.opts.logger.v(2).info(`Error syncing pod ${podName(rec.pod)}: ${errorMessage(err)}`);
      this.opts.queue.schedule(key, this.opts.clock.now() + POD_RETRY_MS);
    }
  }

  /** Stops every process (the agent is stopping): SIGTERM, then SIGKILL after `graceMs`. */
  async shutdown(graceMs = 5_000): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.records.values()].map((rec) => this.stopProcesses(rec, graceMs, false)));
  }

  /**
   * The log file of a container of one of the agent's pods: its current run's, or with `previous`
   * the one before (the kubelet's errors when there is none or the container has not started).
   */
  containerLog(namespace: string, name: string, container: string, previous: boolean): ContainerLogSource {
    const rec = [...this.records.values()].find(
      (r) => r.pod.metadata?.namespace === namespace && r.pod.metadata?.name === name,
    );
    if (!rec) return { code: 404, message: `pod "${name}" in namespace "${namespace}" not found` };
    const c = this.runs(rec).find((r) => r.name === container);
    if (!c) return { code: 404, message: `container "${container}" in pod "${name}" not found` };
    if (previous) {
      if (!c.containerID || c.restartCount === 0)
        return {
          code: 400,
          message: `previous terminated container "${container}" in pod "${name}" not found`,
        };
      return {
        file: containerLogPath(this.opts.rootDir, rec.pod, container, c.restartCount - 1),
        running: () => false,
      };
    }
    if (!c.containerID) {
      const reason = c.state.waiting?.reason ?? 'ContainerCreating';
      return {
        code: 400,
        message: `container "${container}" in pod "${name}" is waiting to start: ${reason}`,
      };
    }
    const proc = c.proc;
    return {
      file: containerLogPath(this.opts.rootDir, rec.pod, container, c.restartCount),
      running: () => proc !== undefined && c.proc === proc && proc.running,
    };
  }

  /** Runs commands beside a running container's process, with its environment and working directory. */
  exec(namespace: string, name: string, container: string): ContainerExec | StreamRefusal {
    const rec = [...this.records.values()].find(
      (r) => r.pod.metadata?.namespace === namespace && r.pod.metadata?.name === name,
    );
    if (!rec) return { code: 404, message: 'pod does not exist' };
    const c = this.runs(rec).find((r) => r.name === container);
    const target = c?.target;
    if (!c?.proc?.running || !target) return { code: 500, message: `container not found ("${container}")` };
    return { run: (command, io) => execProcess(command, target, io) };
  }

  attach(namespace: string, name: string, container: string): ContainerAttach | StreamRefusal {
    const rec = [...this.records.values()].find(
      (r) => r.pod.metadata?.namespace === namespace && r.pod.metadata?.name === name,
    );
    if (!rec) return { code: 404, message: 'pod does not exist' };
    const proc = this.runs(rec).find((r) => r.name === container)?.proc;
    if (!proc?.running) return { code: 500, message: `container not found ("${container}")` };
    return { run: (io) => proc.attach(io) };
  }

  /** A pod's containers listen on the host: its ports are connected to on 127.0.0.1. */
  portForward(namespace: string, name: string): PodPortForwarder | StreamRefusal {
    const known = [...this.records.values()].some(
      (r) => r.pod.metadata?.namespace === namespace && r.pod.metadata?.name === name,
    );
    if (!known) return { code: 404, message: 'pod does not exist' };
    return {
      dial: (port) =>
        new Promise((resolve, reject) => {
          const socket = connect({ host: '127.0.0.1', port });
          socket.once('connect', () => {
            socket.off('error', reject);
            resolve(socket);
          });
          socket.once('error', reject);
        }),
    };
  }

  /** What the running containers of a node's pods use, read from their process groups. */
  resourceUsage(nodeName: string): Promise<PodUsage[]> {
    const pods = [...this.records.values()]
      .filter((r) => r.node.name === nodeName && !r.finished)
      .map((r) => ({
        pod: r.pod,
        containers: this.runs(r).flatMap((c) => {
          const pid = c.proc?.running ? c.proc.pid : undefined;
          const startedAt = c.state.running?.startedAt;
          return pid !== undefined && startedAt ? [{ name: c.name, pid, startedAt }] : [];
        }),
      }));
    return processPodUsage(pods);
  }

  private runs(rec: PodRecord): Run[] {
    return [...rec.init, ...rec.app];
  }

  private admit(uid: string, pod: Pod, node: SimulatedNode): PodRecord {
    const startTime = pod.status?.startTime;
    const acceptedAt = startTime ? parseTime(startTime) : this.opts.clock.now();
    // the containers run on the host's network, their ports listening on the host: every pod reports
    // the node's address as its IP, as host-network pods do
    const podIP = node.internalIP;
    const hasInit = (pod.spec?.initContainers ?? []).length > 0;
    const run = (spec: Container, init: boolean): Run => {
      const old = (init ? pod.status?.initContainerStatuses : pod.status?.containerStatuses)?.find(
        (s) => s.name === spec.name,
      );
      const done = init && old?.state?.terminated?.exitCode === 0;
      return {
        spec,
        init,
        name: spec.name,
        image: spec.image ?? '',
        restartCount: old?.restartCount ?? 0,
        state: done
          ? old.state!
          : { waiting: { reason: init || hasInit ? 'PodInitializing' : 'ContainerCreating' } },
        lastState: old?.lastState ?? {},
        ...(old?.containerID ? { containerID: old.containerID } : {}),
        ready: done,
        started: false,
        exits: 0,
        probes: [],
      };
    };
    return {
      uid,
      node,
      pod,
      ctx: { acceptedAt, podIP, hostIP: node.internalIP },
      init: (pod.spec?.initContainers ?? []).map((c) => run(c, true)),
      app: (pod.spec?.containers ?? []).map((c) => run(c, false)),
      deleting: false,
      stopped: false,
      finished: isPodTerminal(pod),
    };
  }

  /** Starts the containers due: the next init container, or every app container not running. */
  private async reconcile(rec: PodRecord): Promise<void> {
    const now = this.opts.clock.now();
    const due = (c: Run) => !c.proc && !c.blocked && (c.restartAt === undefined || now >= c.restartAt);
    for (const c of rec.init) {
      if (c.state.terminated?.exitCode === 0) continue;
      if (c.state.terminated || !due(c)) return;
      return this.start(rec, c);
    }
    for (const c of rec.app) {
      // containers start one after the other, each once its postStart hook finished
      if (rec.app.some((o) => o.postStarting)) return;
      if (c.state.terminated || !due(c)) continue;
      await this.start(rec, c);
    }
  }

  /** The earliest time a container waits for. */
  private nextWake(rec: PodRecord): number | undefined {
    const times = this.runs(rec)
      .filter((c) => !c.proc && c.restartAt !== undefined)
      .map((c) => c.restartAt!);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  private async start(rec: PodRecord, c: Run): Promise<void> {
    const { clock } = this.opts;
    const pod = rec.pod;
    c.restartAt = undefined;
    let env;
    try {
      env = await buildEnv(pod, c.spec, this.opts.envSources, {
        ...rec.ctx,
        allocatable: rec.node.allocatable,
      });
    } catch (err) {
      if (!(err instanceof ContainerConfigError)) throw err;
      return this.cannotStart(rec, c, 'CreateContainerConfigError', err.message, true);
    }
    for (const invalid of env.invalid) {
      this.event(
        rec,
        c.name,
        'Warning',
        'InvalidEnvironmentVariableNames',
        invalidEnvKeysMessage(pod.metadata?.namespace ?? '', invalid),
      );
    }
    const argv = [...expandAll(c.spec.command ?? [], env.env), ...expandAll(c.spec.args ?? [], env.env)];
    if (argv.length === 0)
      return this.cannotStart(rec, c, 'CreateContainerConfigError', NO_COMMAND_MESSAGE, false);

    const dir = path.join(podDir(this.opts.rootDir, pod), c.name);
    const cwd = c.spec.workingDir || path.join(dir, 'workdir');
    const ownFile =
      (c.spec.terminationMessagePath ?? DEFAULT_TERMINATION_MESSAGE_PATH) ===
      DEFAULT_TERMINATION_MESSAGE_PATH;
    const messageFile = ownFile ? path.join(dir, 'termination-log') : c.spec.terminationMessagePath!;
    try {
      await fs.mkdir(dir, { recursive: true });
      await fs.mkdir(cwd, { recursive: true });
      if (ownFile) await fs.rm(messageFile, { force: true });
    } catch (err) {
      return this.cannotStart(rec, c, 'CreateContainerError', errorMessage(err), true);
    }
    if (c.containerID) c.restartCount++;
    const processEnv: Record<string, string> = {
      PATH: process.env.PATH || DEFAULT_PATH,
      HOSTNAME: pod.spec?.hostname || (pod.metadata?.name ?? ''),
      [TERMINATION_MESSAGE_PATH_ENV]: messageFile,
      ...Object.fromEntries(env.env),
    };
    const startedAt = clock.now();
    const log = new ContainerLog(path.join(dir, `${c.restartCount}.log`));
    const proc = new ContainerProcess({
      argv,
      env: processEnv,
      cwd,
      log,
      stdin: c.spec.stdin ?? false,
      stdinOnce: c.spec.stdinOnce ?? false,
    });
    c.proc = proc;
    c.blocked = false;
    c.containerID = `orch-process://${createHash('sha256').update(`${rec.uid}/${c.name}/${c.restartCount}/${randomUUID()}`).digest('hex')}`;
    c.target = { container: c.spec, env: processEnv, cwd, host: '127.0.0.1' };
    const running = () => {
      c.state = { running: { startedAt: formatTime(startedAt) } };
      c.started = !c.init && !c.spec.startupProbe;
      c.ready = !c.init && !c.spec.readinessProbe && c.started;
      if (!c.init && proc.pid !== undefined) this.startProbes(rec, c, c.target!, startedAt);
    };
    this.event(rec, c.name, 'Normal', 'Created', `Created container ${c.name}`);
    if (proc.pid !== undefined) this.event(rec, c.name, 'Normal', 'Started', `Started container ${c.name}`);
    const postStart = c.spec.lifecycle?.postStart;
    if (postStart && proc.pid !== undefined) void this.postStart(rec, c, proc, postStart, running);
    else running();
    c.exiting = proc.exited.then((exit) =>
      this.onExit(rec, c, proc, exit, { startedAt, messageFile, sinceMs: ownFile ? 0 : startedAt, log }),
    );
  }

  /**
   * Runs a container's postStart hook (stopped when the container is): on success the container
   * runs; on failure the kubelet's FailedPostStartHook event, and the container is killed.
   */
  private async postStart(
    rec: PodRecord,
    c: Run,
    proc: ContainerProcess,
    handler: NonNullable<NonNullable<Container['lifecycle']>['postStart']>,
    running: () => void,
  ): Promise<void> {
    c.postStarting = true;
    const abort = new AbortController();
    void proc.exited.then(() => abort.abort());
    const failure = await runLifecycleHook(handler, c.target!, {
      pod: rec.pod,
      container: c.name,
      signal: abort.signal,
    });
    c.postStarting = false;
    if (c.proc !== proc || rec.deleting) return this.opts.queue.now(`pod/${rec.uid}`);
    if (failure === undefined) {
      running();
    } else {
      this.event(rec, c.name, 'Warning', FAILED_POST_START_HOOK, POST_START_FAILED_MESSAGE);
      c.state = { waiting: { reason: POST_START_HOOK_ERROR, message: failure } };
      this.event(rec, c.name, 'Normal', 'Killing', FAILED_POST_START_HOOK);
      void this.kill(rec, c, this.graceMs(rec.pod, false));
    }
    this.opts.queue.now(`pod/${rec.uid}`);
  }

  /** A container that cannot be started (yet): waiting with `reason`, retried later when `retry`. */
  private cannotStart(rec: PodRecord, c: Run, reason: string, message: string, retry: boolean): void {
    const was = c.state.waiting;
    c.state = { waiting: { reason, message } };
    c.ready = false;
    c.started = false;
    c.blocked = !retry;
    c.restartAt = retry ? this.opts.clock.now() + CONFIG_RETRY_MS : undefined;
    if (was?.reason !== reason || was.message !== message)
      this.event(rec, c.name, 'Warning', 'Failed', `Error: ${message}`);
  }

  private startProbes(rec: PodRecord, c: Run, target: ProbeTarget, startedAt: number): void {
    const kinds: [ProbeKind, Container['livenessProbe']][] = [
      ['startup', c.spec.startupProbe],
      ['liveness', c.spec.livenessProbe],
      ['readiness', c.spec.readinessProbe],
    ];
    const label = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' };
    const changed = () => this.opts.queue.now(`pod/${rec.uid}`);
    for (const [kind, probe] of kinds) {
      if (!probe) continue;
      c.probes.push(
        new ProbeWorker({
          kind,
          probe,
          target,
          clock: this.opts.clock,
          startedAt,
          gate: () => kind === 'startup' || c.started,
          onFailure: (message) =>
            this.event(rec, c.name, 'Warning', 'Unhealthy', `${label[kind]} probe failed: ${message}`),
          onResult: (success) => {
            if (kind === 'readiness') {
              c.ready = success && c.started;
            } else if (kind === 'startup' && success) {
              c.started = true;
              c.ready = !c.spec.readinessProbe;
            } else if (!success) {
              this.event(
                rec,
                c.name,
                'Normal',
                'Killing',
                `Container ${c.name} failed ${kind} probe, will be restarted`,
              );
              for (const w of c.probes) w.stop();
              void this.kill(rec, c, this.graceMs(rec.pod, false));
            }
            changed();
          },
        }),
      );
    }
  }

  private async onExit(
    rec: PodRecord,
    c: Run,
    proc: ContainerProcess,
    exit: ContainerExit,
    run: { startedAt: number; messageFile: string; sinceMs: number; log: ContainerLog },
  ): Promise<void> {
    if (c.proc !== proc) return;
    for (const w of c.probes) w.stop();
    c.probes = [];
    const finishedAt = this.opts.clock.now();
    if (exit.startError) this.event(rec, c.name, 'Warning', 'Failed', `Error: ${exit.startError}`);
    const fileMessage = exit.startError ? '' : await readTerminationMessageFile(run.messageFile, run.sinceMs);
    const message =
      exit.startError ??
      terminationMessage({
        fileMessage,
        policy: c.spec.terminationMessagePolicy,
        exitCode: exit.exitCode,
        logTail: run.log.tail(),
      });
    const terminated = {
      exitCode: exit.exitCode,
      reason: exit.startError ? 'StartError' : exit.exitCode === 0 ? 'Completed' : 'Error',
      ...(message ? { message } : {}),
      startedAt: formatTime(run.startedAt),
      finishedAt: formatTime(finishedAt),
      ...(c.containerID ? { containerID: c.containerID } : {}),
    };
    c.proc = undefined;
    c.started = false;
    c.ready = c.init && exit.exitCode === 0;
    // A run longer than twice the longest back-off starts the back-off afresh.
    c.exits = finishedAt - run.startedAt >= 2 * CRASH_BACKOFF_MAX_MS ? 1 : c.exits + 1;
    const policy = rec.pod.spec?.restartPolicy ?? 'Always';
    const failed = exit.exitCode !== 0;
    const restart =
      !rec.deleting &&
      !this.shuttingDown &&
      (c.init ? failed && policy !== 'Never' : policy === 'Always' || (policy === 'OnFailure' && failed));
    if (restart) {
      const delay = (this.opts.backoffMs ?? crashBackoffMs)(c.exits);
      c.lastState = { terminated };
      c.restartAt = finishedAt + delay;
      c.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${formatBackoff(delay)} restarting failed container=${c.name} pod=${podDesc(rec.pod)}`,
        },
      };
      this.event(
        rec,
        c.name,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${c.name} in pod ${podDesc(rec.pod)}`,
      );
    } else {
      c.state = { terminated };
    }
    this.opts.queue.now(`pod/${rec.uid}`);
  }

  /**
   * Stops a container: its preStop hook first (unless `hooks` is false), then SIGTERM to its
   * processes, SIGKILL once the grace period is over; resolves once its exit is recorded.
   */
  private async kill(rec: PodRecord, c: Run, graceMs: number, hooks = true): Promise<void> {
    const proc = c.proc;
    if (!proc) return;
    const preStop = c.spec.lifecycle?.preStop;
    if (hooks && preStop && c.target && graceMs > 0) {
      graceMs = await preStopGraceMs(preStop, c.target, {
        pod: rec.pod,
        container: c.name,
        graceMs,
        stopped: proc.exited,
        onFailure: () => this.event(rec, c.name, 'Warning', FAILED_PRE_STOP_HOOK, PRE_STOP_FAILED_MESSAGE),
      });
    }
    proc.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        proc.kill('SIGKILL');
        resolve();
      }, graceMs);
    });
    await Promise.race([proc.exited, killed]);
    clearTimeout(timer);
    await c.exiting;
  }

  /** The grace period of a pod's containers in ms: its deletion's, or its spec's. */
  private graceMs(pod: Pod, deleting: boolean): number {
    const seconds =
      (deleting ? pod.metadata?.deletionGracePeriodSeconds : undefined) ??
      pod.spec?.terminationGracePeriodSeconds ??
      DEFAULT_GRACE_SECONDS;
    return Math.max(0, Number(seconds)) * 1000;
  }

  private async stopProcesses(rec: PodRecord, graceMs: number, events: boolean): Promise<void> {
    rec.deleting = true;
    const running = this.runs(rec).filter((c) => c.proc);
    for (const c of this.runs(rec)) c.restartAt = undefined;
    for (const c of running)
      if (events) this.event(rec, c.name, 'Normal', 'Killing', `Stopping container ${c.name}`);
    await Promise.all(running.map((c) => this.kill(rec, c, graceMs, events)));
  }

  /** A pod being deleted: stops its processes, writes their final status and deletes it. */
  private async terminate(rec: PodRecord): Promise<void> {
    const { podClient, clock, queue, logger } = this.opts;
    if (!rec.deleting) {
      void this.stopProcesses(rec, this.graceMs(rec.pod, true), true).then(() => {
        rec.stopped = true;
        queue.now(`pod/${rec.uid}`);
      });
      return;
    }
    if (!rec.stopped) return;
    const pod = rec.pod;
    const name = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace;
    try {
      if (!rec.finished && this.runs(rec).some((c) => c.containerID)) {
        try {
          const status = processPodStatus(pod, rec.init, rec.app, rec.ctx, clock.now(), true);
          rec.pod = await podClient.updateStatus({ ...pod, status });
        } catch (err) {
          if (isNotFound(err)) return this.forget(rec.uid);
          logger.v(2).info(`Unable to write the final status of pod ${podName(pod)}: ${errorMessage(err)}`);
        }
        rec.finished = true;
      }
      await podClient.delete(name, { namespace, gracePeriodSeconds: 0, preconditions: { uid: rec.uid } });
      this.forget(rec.uid);
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return this.forget(rec.uid);
      logger.v(2).info(`Unable to delete pod ${podName(pod)}: ${errorMessage(err)}`);
      queue.schedule(`pod/${rec.uid}`, clock.now() + POD_RETRY_MS);
    }
  }

  private forget(uid: string): void {
    const rec = this.records.get(uid);
    if (!rec) return;
    this.records.delete(uid);
    this.opts.queue.cancel(`pod/${uid}`);
    void this.stopProcesses(rec, this.graceMs(rec.pod, true), false).then(() =>
      fs.rm(podDir(this.opts.rootDir, rec.pod), { recursive: true, force: true }).catch(() => undefined),
    );
  }

  /** Writes the pod's status when it changed. */
  private async sync(rec: PodRecord): Promise<void> {
    const { clock, podClient } = this.opts;
    await syncPodStatus(podClient, rec, (pod) => ({
      status: processPodStatus(pod, rec.init, rec.app, rec.ctx, clock.now()),
    }));
  }

  private event(
    rec: PodRecord,
    container: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): void {
    containerEvent(this.opts.recorderFor?.(rec.node.name), rec.pod, container, type, reason, message);
  }
}
