import { JobKind, type Job } from '@orch/api';
import {
  clientFor,
  isNotFound,
  splitMetaNamespaceKey,
  type KubeObject,
  type Lister,
  type SharedIndexInformer,
  type TypedClient,
} from '@orch/client';
import { QueueController, type ControllerContext } from '@orch/component-base';
import { RESOURCES } from '../controller/resources';
import { needsCleanup, ttlTimeLeft } from './ttlTimeLeft';

/**
 * Deletes finished Jobs once their spec.ttlSecondsAfterFinished has passed (Kubernetes'
 * ttl-after-finished controller). A Job not expired yet is looked at again when it is; an expired
 * one is read again from the API, its TTL checked once more, and it is deleted in the foreground
 * (its pods first) on condition that its UID and resourceVersion are still the ones checked.
 */
export class TTLAfterFinishedController extends QueueController {
  private readonly jobLister: Lister<Job>;
  private readonly jobs: TypedClient<Job>;

  constructor(ctx: ControllerContext) {
    super('ttl-after-finished', ctx);
    const jobInformer = ctx.informers.informerFor<Job>(RESOURCES.jobs);
    this.jobLister = jobInformer.lister();
    this.jobs = clientFor(ctx.client, JobKind);
    const consider = (job: Job): void => {
      if (!job.metadata?.deletionTimestamp && needsCleanup(job)) this.enqueue(job);
    };
    jobInformer.addEventHandler({ onAdd: consider, onUpdate: (_old, job) => consider(job) });
    this.run([jobInformer] as SharedIndexInformer<KubeObject>[]);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.jobLister.namespace(namespace).get(name);
    if (!cached || !this.expired(key, cached)) return;
    // The cached TTL may be stale: check the Job as the API has it now.
    let fresh: Job;
    try {
      fresh = await this.jobs.get(name, { namespace });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!this.expired(key, fresh)) return;
    try {
      await this.jobs.delete(name, {
        namespace,
        propagationPolicy: 'Foreground',
        preconditions: { uid: fresh.metadata?.uid, resourceVersion: fresh.metadata?.resourceVersion },
      });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    this.ctx.logger.info(`ttl-after-finished: deleted job ${key}, finished and past its TTL`);
  }

  /** Whether the Job's TTL has expired; if it has not yet, the key comes back when it does. */
  private expired(key: string, job: Job): boolean {
    if (job.metadata?.deletionTimestamp || !needsCleanup(job)) return false;
    const now = this.ctx.now();
    const { finishAt, remainingMs } = ttlTimeLeft(job, now);
    if (finishAt > now) {
      this.ctx.logger.warning(
        `ttl-after-finished: job ${key} finished in the future, likely a clock skew in the cluster; its cleanup is deferred`,
      );
    }
    if (remainingMs <= 0) return true;
    this.enqueueAfter(key, remainingMs);
    return false;
  }
}
