import type { Pod } from '@orch/api';

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
}

/** A container's log as the agent's log server reads it, or why it cannot. */
export type ContainerLogSource =
  { file?: string; running: () => boolean } | { code: number; message: string };
