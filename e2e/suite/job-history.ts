import type { SuiteCluster } from './cluster';
import { watchObjects } from './watch';

interface JobView {
  metadata: {
    name: string;
    creationTimestamp?: string;
    resourceVersion?: string;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
  status?: { conditions?: { type: string; status: string }[] };
}

/** What a watch saw of one Job over its life. */
export interface JobRecord {
  name: string;
  /** The CronJob controlling it, if any. */
  cronJob?: string;
  creationTimestamp?: string;
  /** The condition it finished with, as last seen (also on its DELETED event). */
  finished?: 'Complete' | 'Failed';
  deleted: boolean;
}

export interface JobHistory {
  /** Every Job the CronJob created since the recording began, oldest first. */
  of(cronJob: string): JobRecord[];
  stop(): void;
}

/** Records, from a watch, every Job of a namespace: creation, how it finished and whether it was deleted. */
export function recordJobs(s: SuiteCluster, namespace: string): JobHistory {
  const jobs = new Map<string, JobRecord>();
  const watch = watchObjects<JobView>(s, `/apis/batch/v1/namespaces/${namespace}/jobs`, (event) => {
    const job = event.object;
    const record = jobs.get(job.metadata.name) ?? {
      name: job.metadata.name,
      cronJob: job.metadata.ownerReferences?.find((o) => o.kind === 'CronJob' && o.controller)?.name,
      creationTimestamp: job.metadata.creationTimestamp,
      deleted: false,
    };
    const finished = job.status?.conditions?.find(
      (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    );
    if (finished) record.finished = finished.type as JobRecord['finished'];
    if (event.type === 'DELETED') record.deleted = true;
    jobs.set(job.metadata.name, record);
  });
  return {
    of: (cronJob) =>
      [...jobs.values()]
        .filter((r) => r.cronJob === cronJob)
        .sort(
          (a, b) =>
            (a.creationTimestamp ?? '').localeCompare(b.creationTimestamp ?? '') ||
            a.name.localeCompare(b.name),
        ),
    stop: watch.stop,
  };
}
