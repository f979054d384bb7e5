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
}
