import {
  ConfigMapKind,
  CronJobKind,
  DeploymentKind,
  JobKind,
  NamespaceKind,
  PodKind,
  ServiceAccountKind,
  type CronJob,
  type Job,
} from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import type { CronJobController } from '@orch/controller-manager';
import { FAIL_ANNOTATION, startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.close();
});

const jobTemplate = {
  spec: {
    template: {
      spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox', command: ['true'] }] },
    },
  },
};

test('a Job with completions 3 and parallelism 2 completes', async () => {
  const jobs = clientFor(cluster.rest, JobKind);
  const pods = clientFor(cluster.rest, PodKind);
  let maxActive = 0;
  await jobs.create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default' },
    spec: { completions: 3, parallelism: 2, ...jobTemplate.spec },
  } as Job);
  const done = await eventually(
    async () => {
      const job = await jobs.get('pi', { namespace: 'default' });
      maxActive = Math.max(maxActive, job.status?.active ?? 0);
      return job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')
        ? job
        : undefined;
    },
    'job to complete',
    30_000,
  );
  expect(done.status).toMatchObject({ succeeded: 3 });
  expect(done.status?.active ?? 0).toBe(0);
  expect(done.status?.startTime).toBeDefined();
  expect(done.status?.completionTime).toBeDefined();
  expect(maxActive).toBeLessThanOrEqual(2);
  // Finished pods are kept.
  const list = await pods.list({ namespace: 'default', labelSelector: 'job-name=pi' });
  expect(list.items).toHaveLength(3);
  expect(list.items.every((p) => p.status?.phase === 'Succeeded')).toBe(true);
});

test('a CronJob */1 * * * * creates a Job when its minute comes (driven clock) and keeps history', async () => {
  const cronJobs = clientFor(cluster.rest, CronJobKind);
  const jobs = clientFor(cluster.rest, JobKind);
  const created = await cronJobs.create({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'tick', namespace: 'default' },
    spec: { schedule: '*/1 * * * *', successfulJobsHistoryLimit: 1, jobTemplate },
  } as CronJob);
  const cron = cluster.manager.controller<CronJobController>('cronjob')!;
  const ownJobs = async (): Promise<Job[]> =>
    (await jobs.list({ namespace: 'default' })).items.filter(
      (j) => j.metadata?.ownerReferences?.[0]?.uid === created.metadata?.uid,
    );

  cluster.advance(61_000);
  await eventually(async () => {
    await cron.syncAll();
    return (await ownJobs()).length === 1;
  });
  const [first] = await ownJobs();
  const minutes = Number(first!.metadata!.name!.slice('tick-'.length));
  expect(minutes * 60_000).toBeGreaterThan(Date.parse(created.metadata!.creationTimestamp!));
  const cj = await eventually(async () => {
    const c = await cronJobs.get('tick', { namespace: 'default' });
    return c.status?.lastScheduleTime ? c : undefined;
  });
  expect(Date.parse(cj.status!.lastScheduleTime!)).toBe(minutes * 60_000);

  // The job completes (the fake kubelet succeeds its pod); a later run replaces it in the history.
  await eventually(
    async () => (await jobs.get(first!.metadata!.name!, { namespace: 'default' })).status?.succeeded === 1,
  );
  cluster.advance(60_000);
  await eventually(async () => {
    await cron.syncAll();
    const names = (await ownJobs()).map((j) => j.metadata?.name);
    return names.includes(`tick-${minutes + 1}`) || names.includes(`tick-${minutes + 2}`);
  });
  await eventually(
    async () => {
      await cron.syncAll();
      const all = await ownJobs();
      const finished = all.filter((j) => j.status?.conditions?.some((c) => c.type === 'Complete'));
      return finished.length === 1 && !all.some((j) => j.metadata?.name === first!.metadata!.name)
        ? true
        : undefined;
    },
    'history limit to remove the first job',
    20_000,
  );
  await cronJobs.patch('tick', 'merge', { spec: { suspend: true } }, { namespace: 'default' });
});

test('every namespace gets a default ServiceAccount; deleting a namespace removes its contents, then it', async () => {
  const namespaces = clientFor(cluster.rest, NamespaceKind);
  const serviceAccounts = clientFor(cluster.rest, ServiceAccountKind);
  await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
  await eventually(async () => serviceAccounts.get('default', { namespace: 'doomed' }));
  await serviceAccounts.delete('default', { namespace: 'doomed' });
  await eventually(
    async () => {
      const sa = await serviceAccounts.get('default', { namespace: 'doomed' });
      return !sa.metadata?.deletionTimestamp;
    },
    'default service account to come back',
    10_000,
  );

  await clientFor(cluster.rest, ConfigMapKind).create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cfg', namespace: 'doomed' },
    data: { a: 'b' },
  });
  await clientFor(cluster.rest, DeploymentKind).create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app', namespace: 'doomed' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  } as never);
  const pods = clientFor(cluster.rest, PodKind);
  await eventually(async () => (await pods.list({ namespace: 'doomed' })).items.length === 2);

  await namespaces.delete('doomed');
  await eventually(
    async () => {
      try {
        await namespaces.get('doomed');
        return false;
      } catch (err) {
        return isNotFound(err);
      }
    },
    'namespace to be gone',
    30_000,
  );
  expect((await pods.list({ namespace: 'doomed' })).items).toHaveLength(0);
  expect((await clientFor(cluster.rest, ConfigMapKind).list({ namespace: 'doomed' })).items).toHaveLength(0);
});

/** Creates a Job whose pods all fail, with `spec` added, and waits for its Failed condition. */
async function failedJob(name: string, spec: Partial<NonNullable<Job['spec']>>): Promise<Job> {
  const jobs = clientFor(cluster.rest, JobKind);
  await jobs.create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      ...spec,
      template: {
        metadata: { annotations: { [FAIL_ANNOTATION]: 'true' } },
        spec: jobTemplate.spec.template.spec,
      },
    },
  } as Job);
  return eventually(
    async () => {
      const j = await jobs.get(name, { namespace: 'default' });
      return j.status?.conditions?.some((c) => c.type === 'Failed') ? j : undefined;
    },
    'the job to fail',
    20_000,
  );
}

test('a Job whose pods fail stops at backoffLimit with BackoffLimitExceeded; finished pods are kept', async () => {
  const job = await failedJob('fails', { backoffLimit: 0 });
  expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
    status: 'True',
    reason: 'BackoffLimitExceeded',
    message: 'Job has reached the specified backoff limit',
  });
  expect(job.status).toMatchObject({ failed: 1 });
  expect(job.status?.completionTime).toBeUndefined();
  const pods = await clientFor(cluster.rest, PodKind).list({
    namespace: 'default',
    labelSelector: 'job-name=fails',
  });
  expect(pods.items.map((p) => p.status?.phase)).toEqual(['Failed']);
});

test("a pod failure policy's FailJob rule fails the Job at the first matching failure", async () => {
  const job = await failedJob('policy', {
    backoffLimit: 6,
    podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } }] },
  });
  const pods = await clientFor(cluster.rest, PodKind).list({
    namespace: 'default',
    labelSelector: 'job-name=policy',
  });
  expect(pods.items).toHaveLength(1);
  const message = `Container ${pods.items[0]!.spec!.containers[0]!.name} for pod default/${pods.items[0]!.metadata!.name} failed with exit code 1 matching FailJob rule at index 0`;
  expect(job.status?.conditions?.map((c) => [c.type, c.reason, c.message])).toEqual([
    ['FailureTarget', 'PodFailurePolicy', message],
    ['Failed', 'PodFailurePolicy', message],
  ]);
  expect(job.status).toMatchObject({ failed: 1 });
});

test('activeDeadlineSeconds fails a Job with DeadlineExceeded and deletes its active pods', async () => {
  const jobs = clientFor(cluster.rest, JobKind);
  cluster.pauseKubelet(true);
  try {
    await jobs.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'slow', namespace: 'default' },
      spec: { activeDeadlineSeconds: 1, parallelism: 2, completions: 2, ...jobTemplate.spec },
    } as Job);
    const job = await eventually(
      async () => {
        const j = await jobs.get('slow', { namespace: 'default' });
        return j.status?.conditions?.some((c) => c.type === 'Failed') ? j : undefined;
      },
      'the deadline',
      20_000,
    );
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    });
    expect(job.status).toMatchObject({ failed: 2 });
    await eventually(
      async () =>
        (
          await clientFor(cluster.rest, PodKind).list({
            namespace: 'default',
            labelSelector: 'job-name=slow',
          })
        ).items.length === 0,
    );
  } finally {
    cluster.pauseKubelet(false);
  }
});
