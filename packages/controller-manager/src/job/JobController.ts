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
import { isPodActive, podFromTemplate } from '../controller/podUtil';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import { podsToDelete } from '../replicaset/rankPodsForDeletion';
import { slowStartBatch } from '../replicaset/slowStartBatch';
import {
  isJobFinished,
  JOB_BACKOFF_BASE_MS,
  JOB_BACKOFF_MAX_MS,
  jobBackoffDelay,
  jobComplete,
  newJobCondition,
  pastActiveDeadline,
  pastBackoffLimitOnFailure,
  wantActive,
} from './jobLogic';

export const JOB_GVK = { group: 'batch', version: 'v1', kind: 'Job' };

/** The pod a Job creates from its template. */
export function jobPodFromTemplate(job: Job): Pod {
  return podFromTemplate(job, job.spec?.template, JOB_GVK);
}

/** Runs Jobs' pods to completion: parallelism, completions, backoffLimit, activeDeadlineSeconds. */
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
    const previousRetry = this.queue.numRequeues(key);
    const pods = await new ControllerRefManager<Pod>({
      controller: job,
      controllerKind: { apiVersion: 'batch/v1', kind: 'Job' },
      selector: labelSelectorAsSelector(job.spec?.selector),
      client: this.pods,
      canAdopt: recheckDeletionTimestamp(() => this.jobs.get(name, { namespace }), job.metadata?.uid ?? ''),
    }).claim(this.podLister.namespace(namespace).list());
    const activePods = pods.filter(isPodActive);
    let active = activePods.length;
    const succeeded = pods.filter((p) => p.status?.phase === 'Succeeded').length;
    let failed = pods.filter((p) => p.status?.phase === 'Failed').length;
    const status = structuredClone(job.status ?? {});
    const conditionCount = status.conditions?.length ?? 0;
    let changedStart = false;
    if (!status.startTime) {
      status.startTime = formatTime(now);
      changedStart = true;
      const deadline = job.spec?.activeDeadlineSeconds;
      if (deadline !== undefined) this.enqueueAfter(key, deadline * 1000);
    }
    job.status = status;
    const parallelism = job.spec?.parallelism ?? 1;
    const backoffLimit = job.spec?.backoffLimit ?? 6;
    const newFailure = failed > (cached.status?.failed ?? 0);
    const exceedsBackoffLimit = newFailure && active !== parallelism && previousRetry + 1 > backoffLimit;
    let failureReason = '';
    let failureMessage = '';
    if (exceedsBackoffLimit || pastBackoffLimitOnFailure(job, pods)) {
      failureReason = 'BackoffLimitExceeded';
      failureMessage = 'Job has reached the specified backoff limit';
    } else if (pastActiveDeadline(job, now)) {
      failureReason = 'DeadlineExceeded';
      failureMessage = 'Job was active longer than specified deadline';
    }
    let manageError: unknown;
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
        newJobCondition('Failed', failureReason, failureMessage, now),
      ];
      this.event(job, 'Warning', failureReason, failureMessage);
    } else {
      if (needsSync && !job.metadata?.deletionTimestamp) {
        ({ active, error: manageError } = await this.manageJob(activePods, succeeded, job, key));
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
      }
    }
    let forget = (cached.status?.succeeded ?? 0) < succeeded;
    if (
      changedStart ||
      (cached.status?.active ?? 0) !== active ||
      (cached.status?.succeeded ?? 0) !== succeeded ||
      (cached.status?.failed ?? 0) !== failed ||
      (status.conditions?.length ?? 0) !== conditionCount
    ) {
      status.active = active;
      status.succeeded = succeeded;
      status.failed = failed;
      await this.jobs.updateStatus({ ...job, status });
      if (newFailure && !isJobFinished({ ...job, status })) {
        throw new Error(`failed pod(s) detected for job key "${key}"`);
      }
      forget = true;
    }
    if (manageError !== undefined) throw manageError;
    return forget;
  }

  /** Creates or deletes pods so that the right number is active (manageJob). */
  private async manageJob(
    activePods: Pod[],
    succeeded: number,
    job: Job,
    key: string,
  ): Promise<{ active: number; error: unknown }> {
    let active = activePods.length;
    const parallelism = job.spec?.parallelism ?? 1;
    if (active > parallelism) {
      const victims = podsToDelete(activePods, activePods, active - parallelism);
      this.expectations.expectDeletions(key, victims.length);
      let error: unknown;
      await Promise.all(
        victims.map(async (pod) => {
          try {
            await this.pods.delete(pod.metadata?.name ?? '', { namespace: pod.metadata?.namespace });
            active--;
          } catch (err) {
            this.expectations.deletionObserved(key);
            if (!isNotFound(err)) error ??= err;
          }
        }),
      );
      return { active, error };
    }
    const diff = wantActive(job, active, succeeded) - active;
    if (diff <= 0) return { active, error: undefined };
    this.expectations.expectCreations(key, diff);
    const { successes, error } = await slowStartBatch(diff, 1, async () => {
      try {
        const pod = await this.pods.create(jobPodFromTemplate(job));
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
