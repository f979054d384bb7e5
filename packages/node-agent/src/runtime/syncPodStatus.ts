import type { Pod, PodStatus } from '@orch/api';
import { isConflict, type TypedClient } from '@orch/client';

/** Attempts of a status write that meets conflicts. */
const STATUS_UPDATE_RETRIES = 5;
/** Retry delay of a failed pod write (status or deletion), in ms. */
export const POD_RETRY_MS = 1_000;

/** What a runtime keeps of a pod it runs, as far as its status writes go. */
export interface StatusRecord {
  uid: string;
  /** The newest pod seen: from the informer or from the runtime's own writes. */
  pod: Pod;
  /** JSON of the status last written, to skip writes that change nothing. */
  written?: string;
}

/**
 * Writes the status `compute` gives for the pod when it differs from what the pod has, through PUT
 * pods/status with optimistic concurrency: a conflict reads the pod again and computes anew (up to 5
 * attempts; a pod replaced under the same name is an error). Returns what `compute` gave last, the
 * status the pod had before, and whether this call wrote.
 */
export async function syncPodStatus<T extends { status: PodStatus }>(
  podClient: Pick<TypedClient<Pod>, 'get' | 'updateStatus'>,
  rec: StatusRecord,
  compute: (pod: Pod) => T,
): Promise<T & { previous: PodStatus | undefined; wrote: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const result = compute(rec.pod);
    const json = JSON.stringify(result.status);
    const previous = rec.pod.status;
    if (json === rec.written || json === JSON.stringify(previous ?? {})) {
      rec.written = json;
      return { ...result, previous, wrote: false };
    }
    try {
      rec.pod = await podClient.updateStatus({ ...rec.pod, status: result.status });
      rec.written = json;
      return { ...result, previous, wrote: true };
    } catch (err) {
      if (!isConflict(err) || attempt >= STATUS_UPDATE_RETRIES) throw err;
      rec.pod = await podClient.get(rec.pod.metadata?.name ?? '', { namespace: rec.pod.metadata?.namespace });
      if (rec.pod.metadata?.uid !== rec.uid) throw err;
    }
  }
}

/** A pod as logs name it: `<namespace>/<name>`. */
export function podName(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}
