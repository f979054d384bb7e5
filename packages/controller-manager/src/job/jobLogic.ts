import {
  isPodTerminal,
  formatTime,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_COMPLETION_INDEX_ENV,
  parseTime,
  type Container,
  type Job,
  type Pod,
} from '@orch/api';

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

/**
 * Whether a sync's failed pods exceed the job's backoffLimit (Kubernetes 1.29's rule, which counts
 * failed pods): only on a new failure (more failed pods than the status shows) while the job is not
 * back at full parallelism (else it is an earlier sync's failure whose status write was lost).
 */
export function exceedsBackoffLimit(
  failedInStatus: number,
  failed: number,
  active: number,
  parallelism: number,
  backoffLimit: number,
): boolean {
  return failed > failedInStatus && active !== parallelism && failed > backoffLimit;
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

/** Whether the job has been active for activeDeadlineSeconds; a suspended job never is. */
export function pastActiveDeadline(job: Job, now: number): boolean {
  const deadline = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (deadline === undefined || !start || isJobSuspended(job)) return false;
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

/** Whether the job is suspended: it has no pods running and creates none. */
export function isJobSuspended(job: Job): boolean {
  return job.spec?.suspend === true;
}

/** Whether pods get completion indexes (completionMode Indexed). */
export function isIndexedJob(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

/**
 * The completion index of an Indexed job's pod, from its annotation (Kubernetes' getCompletionIndex);
 * undefined when missing, malformed or not below completions.
 */
export function completionIndexOf(pod: Pod, completions: number): number | undefined {
  const value = pod.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
  if (value === undefined || !/^(0|[1-9][0-9]*)$/.test(value)) return undefined;
  const index = Number(value);
  return index < completions ? index : undefined;
}

/** The distinct indexes of the succeeded pods, in increasing order. */
export function succeededIndexes(job: Job, pods: readonly Pod[]): number[] {
  const completions = job.spec?.completions ?? 0;
  const indexes = new Set<number>();
  for (const pod of pods) {
    if (pod.status?.phase !== 'Succeeded') continue;
    const index = completionIndexOf(pod, completions);
    if (index !== undefined) indexes.add(index);
  }
  return [...indexes].sort((a, b) => a - b);
}

/**
 * Indexes in Kubernetes' interval text (orderedIntervals.String): increasing, runs of three or more
 * as "first-last", so 0,1,2,4,6,7 is "0-2,4,6,7".
 */
export function formatIndexes(sorted: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const first = sorted[i]!;
    const last = sorted[j]!;
    if (last === first) parts.push(String(first));
    else if (last === first + 1) parts.push(`${first},${last}`);
    else parts.push(`${first}-${last}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The lowest `count` indexes below `completions` that are not in `taken` (firstPendingIndexes). */
export function firstPendingIndexes(
  completions: number,
  taken: ReadonlySet<number>,
  count: number,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
  return out;
}

/**
 * Active pods of an Indexed job that must go: no valid index, an index that already succeeded, or a
 * second pod for the same index (the older pod of an index is kept).
 */
export function redundantIndexedPods(
  job: Job,
  activePods: readonly Pod[],
  succeeded: ReadonlySet<number>,
): Pod[] {
  const completions = job.spec?.completions ?? 0;
  const byAge = [...activePods].sort(
    (a, b) =>
      (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
  const seen = new Set<number>();
  const out: Pod[] = [];
  for (const pod of byAge) {
    const index = completionIndexOf(pod, completions);
    if (index === undefined || succeeded.has(index) || seen.has(index)) out.push(pod);
    else seen.add(index);
  }
  return out;
}

/** The indexes held by active pods of an Indexed job. */
export function activeIndexes(job: Job, activePods: readonly Pod[]): Set<number> {
  const completions = job.spec?.completions ?? 0;
  const out = new Set<number>();
  for (const pod of activePods) {
    const index = completionIndexOf(pod, completions);
    if (index !== undefined) out.add(index);
  }
  return out;
}

/** Kubernetes' names.MaxGeneratedNameLength: 63 minus the 5 random characters. */
const MAX_GENERATED_NAME_LENGTH = 58;

/** The generateName of an Indexed job's pod: `<job>-<index>-`, the job name cut to fit (podGenerateNameWithIndex). */
export function podGenerateNameWithIndex(jobName: string, index: number): string {
  const append = `-${index}-`;
  const prefix = jobName + append;
  if (prefix.length <= MAX_GENERATED_NAME_LENGTH) return prefix;
  return prefix.slice(0, MAX_GENERATED_NAME_LENGTH - append.length) + append;
}

/** Adds JOB_COMPLETION_INDEX from the index annotation to a container that does not set it. */
function addCompletionIndexEnv(container: Container): void {
  if ((container.env ?? []).some((e) => e.name === JOB_COMPLETION_INDEX_ENV)) return;
  container.env = [
    ...(container.env ?? []),
    {
      name: JOB_COMPLETION_INDEX_ENV,
      valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX_ANNOTATION}']` } },
    },
  ];
}

/**
 * Makes a pod created from an Indexed job's template the pod of `index`: the index annotation and
 * label, JOB_COMPLETION_INDEX in every init and app container, hostname `<job>-<index>` and the name
 * prefix `<job>-<index>-`. The subdomain stays as the template has it.
 */
export function setCompletionIndex(pod: Pod, jobName: string, index: number): Pod {
  const meta = (pod.metadata ??= {});
  meta.annotations = { ...meta.annotations, [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) };
  meta.labels = { ...meta.labels, [JOB_COMPLETION_INDEX_ANNOTATION]: String(index) };
  meta.generateName = podGenerateNameWithIndex(jobName, index);
  if (pod.spec) {
    for (const c of pod.spec.initContainers ?? []) addCompletionIndexEnv(c);
    for (const c of pod.spec.containers ?? []) addCompletionIndexEnv(c);
    pod.spec.hostname = `${jobName}-${index}`;
  }
  return pod;
}

/** Pods being deleted that have not finished (Kubernetes' CountTerminatingPods). */
export function countTerminatingPods(pods: readonly Pod[]): number {
  return pods.filter((p) => p.metadata?.deletionTimestamp !== undefined && !isPodTerminal(p)).length;
}

/** Whether replacements wait for pods to fully terminate (podReplacementPolicy Failed). */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy !== undefined;
}

/**
 * Kubernetes' ensureJobConditionStatus: an existing condition of the type takes the status, reason
 * and message (and new transition and probe times) when its status differs; a missing one is added
 * only when True. Returns the conditions and whether they changed.
 */
export function ensureJobConditionStatus(
  conditions: readonly JobCondition[],
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): { conditions: JobCondition[]; changed: boolean } {
  const at = conditions.findIndex((c) => c.type === type);
  if (at >= 0) {
    const current = conditions[at]!;
    if (current.status === status) return { conditions: [...conditions], changed: false };
    const t = formatTime(now);
    const updated: JobCondition = {
      ...current,
      status,
      reason,
      message,
      lastProbeTime: t,
      lastTransitionTime: t,
    };
    return { conditions: conditions.map((c, i) => (i === at ? updated : c)), changed: true };
  }
  if (status !== 'True') return { conditions: [...conditions], changed: false };
  return { conditions: [...conditions, newJobCondition(type, reason, message, now)], changed: true };
}

type PodFailurePolicyRule = NonNullable<
  NonNullable<NonNullable<Job['spec']>['podFailurePolicy']>['rules']
>[number];
type PodContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** The first terminated container with a non-zero exit code the requirement matches. */
function matchingContainer(
  statuses: readonly PodContainerStatus[] | undefined,
  req: NonNullable<PodFailurePolicyRule['onExitCodes']>,
): PodContainerStatus | undefined {
  return (statuses ?? []).find((c) => {
    const code = c.state?.terminated?.exitCode;
    if (code === undefined || code === 0) return false;
    if (req.containerName !== undefined && req.containerName !== c.name) return false;
    const listed = (req.values ?? []).includes(code);
    return req.operator === 'In' ? listed : !listed;
  });
}

/**
 * The pod failure policy rule a failed pod matches, with the message Kubernetes gives when it fails
 * the job (matchPodFailurePolicy): the first rule, in order, whose exit codes (init containers
 * first, then containers; non-zero codes only) or pod conditions match. Undefined when none does,
 * or the pod did not fail.
 */
export function matchPodFailurePolicy(
  job: Job,
  pod: Pod,
): { action: PodFailurePolicyRule['action']; message: string } | undefined {
  if (pod.status?.phase !== 'Failed') return undefined;
  const where = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
  const rules = job.spec?.podFailurePolicy?.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    if (rule.onExitCodes) {
      const c =
        matchingContainer(pod.status.initContainerStatuses, rule.onExitCodes) ??
        matchingContainer(pod.status.containerStatuses, rule.onExitCodes);
      if (c)
        return {
          action: rule.action,
          message: `Container ${c.name} for pod ${where} failed with exit code ${c.state!.terminated!.exitCode} matching ${rule.action} rule at index ${index}`,
        };
    }
    for (const pattern of rule.onPodConditions ?? []) {
      const cond = pod.status.conditions?.find(
        (c) => c.type === pattern.type && c.status === (pattern.status ?? 'True'),
      );
      if (cond)
        return {
          action: rule.action,
          message: `Pod ${where} has condition ${pattern.type} matching ${rule.action} rule at index ${index}`,
        };
    }
  }
  return undefined;
}
