import { parseTime, type Job } from '@orch/api';
import { isJobFinished } from '../job/jobLogic';

/** Whether the Job has finished (Complete or Failed) and has ttlSecondsAfterFinished set. */
export function needsCleanup(job: Job): boolean {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  return ttl !== undefined && ttl !== null && isJobFinished(job);
}

/**
 * When a finished Job finished, in ms: the lastTransitionTime of its Complete or Failed condition
 * that is True, or else its status.completionTime. Throws when neither says.
 */
export function jobFinishTime(job: Job): number {
  const ref = `${job.metadata?.namespace}/${job.metadata?.name}`;
  const condition = (job.status?.conditions ?? []).find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  if (!condition) throw new Error(`unable to find the status of the finished Job ${ref}`);
  const at = condition.lastTransitionTime ?? job.status?.completionTime;
  if (!at) throw new Error(`unable to find the time when the Job ${ref} finished`);
  return parseTime(at);
}

/** What is left of a finished Job's TTL at a given time. */
export interface TTLTimeLeft {
  /** When the Job finished, in ms. */
  finishAt: number;
  /** When its TTL expires, in ms: finishAt + ttlSecondsAfterFinished. */
  expireAt: number;
  /** expireAt - now; 0 or below: expired. */
  remainingMs: number;
}

/** The TTL left of a Job that needs cleanup at `now` (ms). Throws when the Job does not need cleanup. */
export function ttlTimeLeft(job: Job, now: number): TTLTimeLeft {
  if (!needsCleanup(job)) {
    throw new Error(`job ${job.metadata?.namespace}/${job.metadata?.name} should not be cleaned up`);
  }
  const finishAt = jobFinishTime(job);
  const expireAt = finishAt + (job.spec?.ttlSecondsAfterFinished ?? 0) * 1000;
  return { finishAt, expireAt, remainingMs: expireAt - now };
}
