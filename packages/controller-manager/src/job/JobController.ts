import {
  getControllerOf,
  JobKind,
  labelSelectorAsSelector,
  PodKind,
  formatTime,
  type Job,
  type Pod,
} from '@orch/api';
import {
  ControllerExpectations,
  ControllerRefManager,
  recheckDeletionTimestamp,
  clientFor,
  isNotFound,
  ItemExponentialFailureRateLimiter,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { errorMessage, type ControllerContext, deletedObject, QueueController } from '@orch/component-base';
import { isPodActive, isPodReady, podFromTemplate } from '../controller/podUtil';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import { podsToDelete } from '../replicaset/rankPodsForDeletion';
import { slowStartBatch } from '../replicaset/slowStartBatch';
import {
  activeIndexes,
  countTerminatingPods,
  ensureJobConditionStatus,
  firstPendingIndexes,
  formatIndexes,
  isIndexedJob,
  isJobFinished,
  isJobSuspended,
  JOB_BACKOFF_BASE_MS,
  JOB_BACKOFF_MAX_MS,
  exceedsBackoffLimit,
  jobBackoffDelay,
  matchPodFailurePolicy,
  jobComplete,
  newJobCondition,
  onlyReplaceFailedPods,
  pastActiveDeadline,
  pastBackoffLimitOnFailure,
  redundantIndexedPods,
  setCompletionIndex,
  succeededIndexes,
  wantActive,
} from './jobLogic';

export const JOB_GVK = { group: 'batch', version: 'v1', kind: 'Job' };

/** The pod a Job creates from its template; with an index, the pod of that completion index. */
export function jobPodFromTemplate(job: Job, index?: number): Pod {
  const pod = podFromTemplate(job, job.spec?.template, JOB_GVK);
  return index === undefined ? pod : setCompletionIndex(pod, job.metadata?.name ?? '', index);
}

/**
 * The counts a sync works from: succeeded pods (distinct succeeded indexes for Indexed jobs) and,
 * for Indexed jobs, those indexes.
 */
interface Progress {
  succeeded: number;
  indexes?: number[];
}

/**
 * Runs Jobs' pods to completion: parallelism, completions, completionMode Indexed, suspend,
 * backoffLimit, activeDeadlineSeconds, podReplacementPolicy.
 */
export class JobController extends QueueController {
  readonly expectations: ControllerExpectations;
  private readonly jobLister: Lister<Job>;
  private readonly podLister: Lister<Pod>;
  private readonly jobs: TypedClient<Job>;
  private readonly pods: TypedClient<Pod>;

  constructor(ctx: ControllerContext) {
    super('job', ctx, new ItemExponentialFailureRateLimiter<string>(JOB_BACKOFF_BASE_MS, JOB_BACKOFF_MAX_MS));
    this.expectations = new ControllerExpectations(undefined, ctx.now);
    const jobInformer = ctx.informers.informerFor<Job>(RESOURCES.jobs);
    const podInformer = ctx.informers.informerFor<Pod>(RESOURCES.pods);
    this.jobLister = jobInformer.lister();
    this.podLister = podInformer.lister();
    this.jobs = clientFor(ctx.client, JobKind);
    this.pods = clientFor(ctx.client, PodKind);
    jobInformer.addEventHandler({
      onAdd: (job) => this.enqueue(job),
      onUpdate: (_o, job) => this.enqueue(job),
      onDelete: (obj) => {
        const job = deletedObject(obj);
        this.expectations.delete(`${job.metadata?.namespace}/${job.metadata?.name}`);
      },
    });
    podInformer.addEventHandler({
      onAdd: (pod) => {
        const job = this.ownerOf(pod);
        if (!job) return;
        const key = keyOf(job);
        if (pod.metadata?.deletionTimestamp) this.expectations.deletionObserved(key);
        else this.expectations.creationObserved(key);
        this.queue.add(key);
      },
      onUpdate: (old, pod) => {
        if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
        const job = this.ownerOf(pod);
        if (!job) return;
        const key = keyOf(job);
        if (pod.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp)
          this.expectations.deletionObserved(key);
        const failedNow = pod.status?.phase === 'Failed' && old.status?.phase !== 'Failed';
        this.enqueueAfter(key, failedNow ? jobBackoffDelay(this.queue.numRequeues(key)) : 0);
      },
      onDelete: (obj) => {
        const job = this.ownerOf(deletedObject(obj));
        if (!job) return;
        this.expectations.deletionObserved(keyOf(job));
        this.queue.add(keyOf(job));
      },
    });
    this.run([jobInformer, podInformer] as SharedIndexInformer<KubeObject>[]);
  }

  private ownerOf(pod: Pod): Job | undefined {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'Job') return undefined;
    const job = this.jobLister.namespace(pod.metadata?.namespace ?? '').get(ref.name);
    return job?.metadata?.uid === ref.uid ? job : undefined;
  }

  private event(job: Job, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.recorder.event(withKind(job, 'batch/v1', 'Job'), type, reason, message);
  }

  protected async sync(key: string): Promise<boolean> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.jobLister.namespace(namespace).get(name);
    if (!cached) {
      this.expectations.delete(key);
      return true;
    }
    if (isJobFinished(cached)) return true;
    const job = structuredClone(cached);
    const now = this.ctx.now();
    const needsSync = this.expectations.satisfiedExpectations(key);
    const pods = await new ControllerRefManager<Pod>({
      controller: job,
      controllerKind: { apiVersion: 'batch/v1', kind: 'Job' },
      selector: labelSelectorAsSelector(job.spec?.selector),
      client: this.pods,
      canAdopt: recheckDeletionTimestamp(() => this.jobs.get(name, { namespace }), job.metadata?.uid ?? ''),
    }).claim(this.podLister.namespace(namespace).list());
    const activePods = pods.filter(isPodActive);
    let active = activePods.length;
    const indexed = isIndexedJob(job);
    const suspended = isJobSuspended(job);
    const indexes = indexed ? succeededIndexes(job, pods) : undefined;
    const progress: Progress = {
      succeeded: indexes ? indexes.length : pods.filter((p) => p.status?.phase === 'Succeeded').length,
      indexes,
    };
    const succeeded = progress.succeeded;
    // the pod failure policy's rule for each failed pod: Ignore leaves the failure uncounted, FailJob
    // fails the job
    const failedPods = pods.filter((p) => p.status?.phase === 'Failed');
    const matched = job.spec?.podFailurePolicy ? failedPods.map((p) => matchPodFailurePolicy(job, p)) : [];
    const failJob = matched.find((m) => m?.action === 'FailJob');
    let failed = failedPods.length - matched.filter((m) => m?.action === 'Ignore').length;
    const ready = activePods.filter(isPodReady).length;
    // Kubernetes reports terminating pods when pod replacement policies are in use.
    const terminating = job.spec?.podReplacementPolicy !== undefined ? countTerminatingPods(pods) : undefined;
    const status = structuredClone(job.status ?? {});
    const conditionCount = status.conditions?.length ?? 0;
    let changedStart = false;
    // A job created suspended gets its start time when it is first resumed.
    if (!status.startTime && !suspended) {
      status.startTime = formatTime(now);
      changedStart = true;
      this.requeueAtDeadline(job, key);
    }
    job.status = status;
    const parallelism = job.spec?.parallelism ?? 1;
    const backoffLimit = job.spec?.backoffLimit ?? 6;
    const newFailure = failed > (cached.status?.failed ?? 0);
    const pastBackoffLimit = exceedsBackoffLimit(
      cached.status?.failed ?? 0,
      failed,
      active,
      parallelism,
      backoffLimit,
    );
    let failureReason = '';
    let failureMessage = '';
    if (failJob) {
      failureReason = 'PodFailurePolicy';
      failureMessage = failJob.message;
    } else if (pastBackoffLimit || pastBackoffLimitOnFailure(job, pods)) {
      failureReason = 'BackoffLimitExceeded';
      failureMessage = 'Job has reached the specified backoff limit';
    } else if (pastActiveDeadline(job, now)) {
      failureReason = 'DeadlineExceeded';
      failureMessage = 'Job was active longer than specified deadline';
    }
    let manageError: unknown;
    let suspendChanged = false;
    // Pods created but not yet seen would escape the cleanup: fail once the cache has them (their
    // arrival requeues the job).
    if (failureReason && !needsSync) return false;
    if (failureReason) {
      await Promise.all(
        activePods.map((pod) =>
          this.pods.delete(pod.metadata?.name ?? '', { namespace }).catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          }),
        ),
      );
      failed += active;
      active = 0;
      status.conditions = [
        ...(status.conditions ?? []),
        // a job the policy fails is first marked FailureTarget, as Kubernetes records it
        ...(failJob ? [newJobCondition('FailureTarget', failureReason, failureMessage, now)] : []),
        newJobCondition('Failed', failureReason, failureMessage, now),
      ];
      this.event(job, 'Warning', failureReason, failureMessage);
    } else {
      let manageCalled = false;
      if (needsSync && !job.metadata?.deletionTimestamp) {
        ({ active, error: manageError } = await this.manageJob(
          activePods,
          progress,
          terminating ?? 0,
          job,
          key,
        ));
        manageCalled = true;
      }
      if (jobComplete(job, active, succeeded)) {
        if (job.spec?.completions !== undefined && succeeded > job.spec.completions) {
          this.event(
            job,
            'Warning',
            'TooManySucceededPods',
            'Too many succeeded pods running after completion count reached',
          );
        }
        status.conditions = [...(status.conditions ?? []), newJobCondition('Complete', '', '', now)];
        status.completionTime = formatTime(now);
        this.event(job, 'Normal', 'Completed', 'Job completed');
      } else if (manageCalled) {
        // The Suspended condition follows spec.suspend once the pods were brought in line with it.
        const ensured = suspended
          ? ensureJobConditionStatus(
              status.conditions ?? [],
              'Suspended',
              'True',
              'JobSuspended',
              'Job suspended',
              now,
            )
          : ensureJobConditionStatus(
              status.conditions ?? [],
              'Suspended',
              'False',
              'JobResumed',
              'Job resumed',
              now,
            );
        if (ensured.changed) {
          status.conditions = ensured.conditions;
          suspendChanged = true;
          if (suspended) {
            this.event(job, 'Normal', 'Suspended', 'Job suspended');
          } else {
            this.event(job, 'Normal', 'Resumed', 'Job resumed');
            // activeDeadlineSeconds counts the time the job is continuously active: it starts over.
            status.startTime = formatTime(now);
            this.requeueAtDeadline(job, key);
          }
        }
      }
    }
    let forget = (cached.status?.succeeded ?? 0) < succeeded;
    const completedIndexes = indexes && indexes.length > 0 ? formatIndexes(indexes) : undefined;
    if (
      changedStart ||
      suspendChanged ||
      (cached.status?.active ?? 0) !== active ||
      (cached.status?.succeeded ?? 0) !== succeeded ||
      (cached.status?.failed ?? 0) !== failed ||
      cached.status?.ready !== ready ||
      cached.status?.terminating !== terminating ||
      cached.status?.completedIndexes !== completedIndexes ||
      (status.conditions?.length ?? 0) !== conditionCount
    ) {
      status.active = active;
      status.succeeded = succeeded;
      status.failed = failed;
      status.ready = ready;
      if (terminating !== undefined) status.terminating = terminating;
      if (completedIndexes !== undefined) status.completedIndexes = completedIndexes;
      else delete status.completedIndexes;
      await this.jobs.updateStatus({ ...job, status });
      if (newFailure && !isJobFinished({ ...job, status })) {
        throw new Error(`failed pod(s) detected for job key "${key}"`);
      }
      forget = true;
    }
    if (manageError !== undefined) throw manageError;
    return forget;
  }

  /** Requeues the job for when activeDeadlineSeconds runs out, counted from now. */
  private requeueAtDeadline(job: Job, key: string): void {
    const deadline = job.spec?.activeDeadlineSeconds;
    if (deadline !== undefined) this.enqueueAfter(key, deadline * 1000);
  }

  /** Deletes pods, counting the expected deletions; returns how many went and the first error. */
  private async deletePods(pods: Pod[], key: string): Promise<{ removed: number; error: unknown }> {
    this.expectations.expectDeletions(key, pods.length);
    let removed = 0;
    let error: unknown;
    await Promise.all(
      pods.map(async (pod) => {
        try {
          await this.pods.delete(pod.metadata?.name ?? '', { namespace: pod.metadata?.namespace });
          removed++;
        } catch (err) {
          this.expectations.deletionObserved(key);
          if (!isNotFound(err)) error ??= err;
        }
      }),
    );
    return { removed, error };
  }

  /**
   * Creates or deletes pods so that the right number is active (manageJob): none while suspended;
   * for Indexed jobs one pod per pending index, lowest indexes first, and no second pod for an index.
   */
  private async manageJob(
    activePods: Pod[],
    progress: Progress,
    terminating: number,
    job: Job,
    key: string,
  ): Promise<{ active: number; error: unknown }> {
    const active = activePods.length;
    if (isJobSuspended(job)) {
      if (active === 0) return { active, error: undefined };
      const { removed, error } = await this.deletePods(podsToDelete(activePods, activePods, active), key);
      return { active: active - removed, error };
    }
    const parallelism = job.spec?.parallelism ?? 1;
    const indexed = progress.indexes !== undefined;
    const redundant = indexed ? redundantIndexedPods(job, activePods, new Set(progress.indexes)) : [];
    const rest = activePods.filter((p) => !redundant.includes(p));
    const excess = Math.max(0, rest.length - parallelism);
    const victims = [...redundant, ...(excess > 0 ? podsToDelete(rest, rest, excess) : [])];
    if (victims.length > 0) {
      const { removed, error } = await this.deletePods(victims, key);
      return { active: active - removed, error };
    }
    let diff = wantActive(job, active, progress.succeeded) - active;
    // With podReplacementPolicy Failed, a pod being deleted is replaced only once it is gone.
    if (onlyReplaceFailedPods(job)) diff -= terminating;
    if (diff <= 0) return { active, error: undefined };
    let indexesToAdd: number[] | undefined;
    if (indexed) {
      const taken = new Set([...(progress.indexes ?? []), ...activeIndexes(job, activePods)]);
      indexesToAdd = firstPendingIndexes(job.spec?.completions ?? 0, taken, diff);
      diff = indexesToAdd.length;
      if (diff === 0) return { active, error: undefined };
    }
    this.expectations.expectCreations(key, diff);
    let next = 0;
    const { successes, error } = await slowStartBatch(diff, 1, async () => {
      const index = indexesToAdd?.[next++];
      try {
        const pod = await this.pods.create(jobPodFromTemplate(job, index));
        this.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata?.name}`);
      } catch (err) {
        this.event(job, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`);
        throw err;
      }
    });
    for (let i = successes; i < diff; i++) this.expectations.creationObserved(key);
    return { active: active + successes, error };
  }
}

const keyOf = (job: Job): string => `${job.metadata?.namespace}/${job.metadata?.name}`;
