import { formatTime, parseTime, type Job, type Pod } from '@orch/api';

/** First retry delay after a failed pod (Kubernetes' DefaultJobBackOff). */
export const JOB_BACKOFF_BASE_MS = 10_000;
/** Longest retry delay (Kubernetes' MaxJobBackOff). */
export const JOB_BACKOFF_MAX_MS = 360_000;

export type JobCondition = NonNullable<NonNullable<Job['status']>['conditions']>[number];

/** Whether the job has a Complete or Failed condition that is True. */
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
}

/** The delay before the next sync after `requeues` failures: 0, 10 s, 20 s, 40 s, … 6 min (getBackoff). */
export function jobBackoffDelay(requeues: number): number {
  if (requeues <= 0) return 0;
  const delay = JOB_BACKOFF_BASE_MS * Math.pow(2, requeues - 1);
  return Math.min(delay, JOB_BACKOFF_MAX_MS);
}

/** With restartPolicy OnFailure: whether container restarts of active pods reached backoffLimit. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase !== 'Running' && phase !== 'Pending') continue;
    for (const s of [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
    ]) {
      restarts += s.restartCount ?? 0;
    }
  }
  const limit = job.spec?.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** Whether the job has been active for activeDeadlineSeconds. */
export function pastActiveDeadline(job: Job, now: number): boolean {
  const deadline = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (deadline === undefined || !start) return false;
  return now - parseTime(start) >= deadline * 1000;
}

/** How many pods should be active (manageJob): never more than parallelism or the remaining completions. */
export function wantActive(job: Job, active: number, succeeded: number): number {
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  if (completions === undefined || completions === null) return succeeded > 0 ? active : parallelism;
  return Math.max(0, Math.min(completions - succeeded, parallelism));
}

/** Whether the job reached its goal given the counts (the completion rule of syncJob). */
export function jobComplete(job: Job, active: number, succeeded: number): boolean {
  const completions = job.spec?.completions;
  if (completions === undefined || completions === null) return succeeded > 0 && active === 0;
  return succeeded >= completions && active === 0;
}

export function newJobCondition(type: string, reason: string, message: string, now: number): JobCondition {
  const t = formatTime(now);
  return {
    type,
    status: 'True',
    lastProbeTime: t,
    lastTransitionTime: t,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}
