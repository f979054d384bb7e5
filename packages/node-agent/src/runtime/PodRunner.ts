import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Pod } from '@orch/api';
import type { ContainerImage } from './nodeImages';

/** What runs the pods bound to the agent's nodes: the simulated runtime or local processes. */
export interface PodRunner {
  /** A pod was added or changed in the informer. */
  onPod(pod: Pod): void;
  /** A pod was deleted from the informer. */
  onPodDeleted(pod: Pod): void;
  /** Works on the pod with this uid when its turn in the agent's due queue comes. */
  handle(uid: string): Promise<void>;
  /** Stops what the runner started for its pods when the agent stops. */
  shutdown(): Promise<void>;
  /**
   * Where the log of a container of one of its pods is: a CRI log file (none: the container printed
   * nothing) and whether the container still runs; an error (code and message) when there is none.
   */
  containerLog(namespace: string, name: string, container: string, previous: boolean): ContainerLogSource;
  /**
   * Runs commands in a running container of one of its pods (kubectl exec): the entry point, or why
   * there is none (code and message, as the kubelet answers before switching protocols).
   */
  exec(namespace: string, name: string, container: string): ContainerExec | StreamRefusal;
  /** Attaches to the running process of a container (kubectl attach), or why it cannot. */
  attach(namespace: string, name: string, container: string): ContainerAttach | StreamRefusal;
  /** Connects to ports of one of its pods (kubectl port-forward), or why it cannot. */
  portForward(namespace: string, name: string): PodPortForwarder | StreamRefusal;
  /** What the running containers of the pods on a node use at `now` (the Summary API's source). */
  resourceUsage(nodeName: string, now: number): Promise<PodUsage[]>;
  /** The container images present on a node (its status.images); none when the runner keeps no images. */
  nodeImages?(nodeName: string): readonly ContainerImage[];
}

/** The usage of a pod's running containers at one instant. */
export interface PodUsage {
  namespace: string;
  name: string;
  uid: string;
  /** The pod's status.startTime, if set. */
  startTime?: string;
  containers: ContainerUsage[];
}

export interface ContainerUsage {
  name: string;
  /** When the current run of the container started (ms since the epoch). */
  startedAt: number;
  /** CPU used since it started, in core-nanoseconds. */
  cpuCoreNanoSeconds: number;
  /** Memory in use that cannot be reclaimed, in bytes. */
  workingSetBytes: number;
}

/** A container's log as the agent's log server reads it, or why it cannot. */
export type ContainerLogSource =
  { file?: string; running: () => boolean } | { code: number; message: string };

/** Why a container cannot be streamed to: the HTTP status and message the agent answers. */
export interface StreamRefusal {
  code: number;
  message: string;
}

/** The client's streams of one exec: each is absent when the client did not ask for it. */
export interface ExecIO {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  /** A terminal was asked for: what the command writes to standard error goes to `stdout`. */
  tty: boolean;
  /** Aborted when the client went away: the command is stopped. */
  signal: AbortSignal;
}

/** How an exec ended: the command's exit code, or why it could not run (the runtime's message). */
export type ExecResult = { exitCode: number } | { error: string };

/** Runs one command in the container with the client's streams. */
export interface ContainerExec {
  run(command: readonly string[], io: ExecIO): Promise<ExecResult>;
}

/** Attaches the client's streams to a container's running process until it ends or the client goes. */
export interface ContainerAttach {
  run(io: ExecIO): Promise<ExecResult>;
}

/** Opens connections to a pod's ports. */
export interface PodPortForwarder {
  /** A connection to `port` in the pod's network; rejects as the connection fails. */
  dial(port: number): Promise<Socket>;
}
