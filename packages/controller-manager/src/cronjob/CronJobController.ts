import {
  CronJobKind,
  formatTime,
  getControllerOf,
  JobKind,
  newControllerRef,
  parseTime,
  type CronJob,
  type Job,
} from '@orch/api';
import {
  clientFor,
  isAlreadyExists,
  isNotFound,
  waitForCacheSync,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { errorMessage, type ControllerContext, type RunningController } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { withKind } from '../controller/withKind';
import { isJobFinished } from '../job/jobLogic';
import { decideRun, jobNameFor, parseSchedule, unmetScheduleTimes } from './schedule';

/** How often every CronJob is checked (Kubernetes' cronjob controller v1). */
export const CRONJOB_SYNC_PERIOD_MS = 10_000;

export const CRONJOB_GVK = { group: 'batch', version: 'v1', kind: 'CronJob' };

type ObjectReference = NonNullable<NonNullable<CronJob['status']>['active']>[number];

/** The job of a scheduled run (getJobFromTemplate). */
export function jobFromTemplate(cj: CronJob, scheduledMs: number): Job {
  const template = cj.spec?.jobTemplate ?? {};
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cj.metadata?.name ?? '', scheduledMs),
      namespace: cj.metadata?.namespace,
      ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(cj, CRONJOB_GVK)],
    },
    spec: structuredClone(template.spec),
  } as Job;
}

const refTo = (job: Job): ObjectReference => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  name: job.metadata?.name,
  namespace: job.metadata?.namespace,
  uid: job.metadata?.uid,
  resourceVersion: job.metadata?.resourceVersion,
});

/**
 * Starts Jobs on CronJobs' schedules. Kubernetes' v1 design: every 10 s each CronJob is synced
 * against its Jobs (read from the informer caches); job names derive from the scheduled time, so
 * a run is never created twice.
 */
export class CronJobController implements RunningController {
  private readonly cjLister: Lister<CronJob>;
  private readonly jobLister: Lister<Job>;
  private readonly cronJobs: TypedClient<CronJob>;
  private readonly jobs: TypedClient<Job>;
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ControllerContext,
    options: { periodMs?: number; autoStart?: boolean } = {},
  ) {
    const cjInformer = ctx.informers.informerFor<CronJob>(RESOURCES.cronjobs);
    const jobInformer = ctx.informers.informerFor<Job>(RESOURCES.jobs);
    this.cjLister = cjInformer.lister();
    this.jobLister = jobInformer.lister();
    this.cronJobs = clientFor(ctx.client, CronJobKind);
    this.jobs = clientFor(ctx.client, JobKind);
    if (options.autoStart === false) return;
    const informers = [cjInformer, jobInformer] as SharedIndexInformer<KubeObject>[];
    void waitForCacheSync(
      informers.map((i) => () => i.hasSynced()),
      { signal: this.abort.signal },
    ).then((synced) => {
      if (!synced) return;
      const tick = (): void => {
        this.running = this.syncAll()
          .catch((err: unknown) => ctx.logger.error(`cronjob: ${errorMessage(err)}`))
          .finally(() => {
            if (!this.abort.signal.aborted)
              this.timer = setTimeout(tick, options.periodMs ?? CRONJOB_SYNC_PERIOD_MS);
          });
      };
      tick();
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.timer);
    await this.running;
  }

  /** Syncs every CronJob once. */
  async syncAll(): Promise<void> {
    for (const cj of this.cjLister.list()) {
      try {
        await this.syncOne(structuredClone(cj));
      } catch (err) {
        this.ctx.logger.error(
          `cronjob: syncing ${cj.metadata?.namespace}/${cj.metadata?.name}: ${errorMessage(err)}`,
        );
      }
    }
  }

  private event(cj: CronJob, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.ctx.recorder.event(withKind(cj, 'batch/v1', 'CronJob'), type, reason, message);
  }

  private jobsOf(cj: CronJob): Job[] {
    return this.jobLister
      .namespace(cj.metadata?.namespace ?? '')
      .list()
      .filter((j) => getControllerOf(j)?.uid === cj.metadata?.uid);
  }

  private async syncOne(cj: CronJob): Promise<void> {
    const now = this.ctx.now();
    const jobs = this.jobsOf(cj);
    const status = cj.status ?? {};
    let active = [...(status.active ?? [])];
    const before = JSON.stringify(active);
    const uids = new Set(jobs.map((j) => j.metadata?.uid));
    for (const job of jobs) {
      const found = active.some((r) => r.uid === job.metadata?.uid);
      const finished = isJobFinished(job);
      if (!found && !finished) {
        this.event(
          cj,
          'Warning',
          'UnexpectedJob',
          `Saw a job that the controller did not create or forgot: ${job.metadata?.name}`,
        );
      } else if (found && finished) {
        const cond = job.status?.conditions?.find(
          (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
        );
        active = active.filter((r) => r.uid !== job.metadata?.uid);
        this.event(
          cj,
          'Normal',
          'SawCompletedJob',
          `Saw completed job: ${job.metadata?.name}, status: ${cond?.type}`,
        );
      }
    }
    for (const ref of [...active]) {
      if (uids.has(ref.uid)) continue;
      this.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
      active = active.filter((r) => r.uid !== ref.uid);
    }
    if (JSON.stringify(active) !== before) cj = await this.writeStatus(cj, { ...status, active });
    await this.cleanupFinishedJobs(cj, jobs);
    if (cj.metadata?.deletionTimestamp || cj.spec?.suspend) return;

    let times: number[];
    try {
      const schedule = parseSchedule(cj.spec?.schedule ?? '', cj.spec?.timeZone);
      const earliest = cj.status?.lastScheduleTime ?? cj.metadata?.creationTimestamp;
      times = unmetScheduleTimes(
        schedule,
        earliest ? parseTime(earliest) : now,
        now,
        cj.spec?.startingDeadlineSeconds,
      );
    } catch (err) {
      this.event(
        cj,
        'Warning',
        'FailedNeedsStart',
        `Cannot determine if job needs to be started: ${errorMessage(err)}`,
      );
      return;
    }
    active = [...(cj.status?.active ?? [])];
    const decision = decideRun(
      times,
      now,
      cj.spec?.startingDeadlineSeconds,
      cj.spec?.concurrencyPolicy,
      active.length,
    );
    if (decision.action === 'none' || decision.action === 'forbidden') return;
    const scheduled = decision.scheduled;
    if (decision.action === 'missed') {
      this.event(
        cj,
        'Warning',
        'MissSchedule',
        `Missed scheduled time to start a job: ${new Date(scheduled).toUTCString()}`,
      );
      return;
    }
    if (decision.replaceActive) {
      for (const ref of active) {
        try {
          await this.jobs.delete(ref.name ?? '', {
            namespace: ref.namespace,
            propagationPolicy: 'Background',
          });
        } catch (err) {
          if (!isNotFound(err)) {
            this.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errorMessage(err)}`);
            return;
          }
        }
        this.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${ref.name}`);
      }
      active = [];
    }
    let job: Job;
    const request = jobFromTemplate(cj, scheduled);
    try {
      job = await this.jobs.create(request);
      this.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${job.metadata?.name}`);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${errorMessage(err)}`);
        return;
      }
      job = await this.jobs.get(request.metadata?.name ?? '', { namespace: cj.metadata?.namespace });
      if (getControllerOf(job)?.uid !== cj.metadata?.uid) return;
    }
    if (!active.some((r) => r.uid === job.metadata?.uid) && !isJobFinished(job)) active.push(refTo(job));
    await this.writeStatus(cj, { ...cj.status, active, lastScheduleTime: formatTime(scheduled) });
  }

  private async writeStatus(cj: CronJob, status: NonNullable<CronJob['status']>): Promise<CronJob> {
    const next = { ...status };
    if (next.active && next.active.length === 0) delete next.active;
    return this.cronJobs.updateStatus({ ...cj, status: next });
  }

  /** Deletes the oldest finished jobs beyond the history limits. */
  private async cleanupFinishedJobs(cj: CronJob, jobs: Job[]): Promise<void> {
    const successLimit = cj.spec?.successfulJobsHistoryLimit;
    const failedLimit = cj.spec?.failedJobsHistoryLimit;
    const finishedAs = (job: Job, type: string): boolean =>
      (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
    const groups: [number | undefined, Job[]][] = [
      [successLimit, jobs.filter((j) => finishedAs(j, 'Complete'))],
      [failedLimit, jobs.filter((j) => finishedAs(j, 'Failed'))],
    ];
    for (const [limit, finished] of groups) {
      if (limit === undefined || finished.length <= limit) continue;
      const startOf = (j: Job): number => (j.status?.startTime ? parseTime(j.status.startTime) : Infinity);
      finished.sort(
        (a, b) => startOf(a) - startOf(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
      );
      for (const job of finished.slice(0, finished.length - limit)) {
        try {
          await this.jobs.delete(job.metadata?.name ?? '', {
            namespace: job.metadata?.namespace,
            propagationPolicy: 'Background',
          });
          this.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name}`);
        } catch (err) {
          if (!isNotFound(err))
            this.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errorMessage(err)}`);
        }
      }
    }
  }
}
