import { JobKind, parseTime, PodKind, type Job, type Pod } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor, isNotFound } from '@orch/client';
import { newFeatureGates } from '@orch/component-base';
import { FAIL_ANNOTATION, startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

const NS = 'default';
const HOLD = 'e2e.orch.io/hold';

let cluster: Cluster;
beforeAll(async () => {
  // The controller and ttlSecondsAfterFinished are alpha: on only with their gate.
  cluster = await startCluster({ featureGates: newFeatureGates({ TTLAfterFinished: true }) });
});
afterAll(async () => {
  await cluster?.close();
});

const jobs = () => clientFor(cluster.rest, JobKind);
const pods = () => clientFor(cluster.rest, PodKind);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createJob(
  name: string,
  opts: { ttl?: number; podFinalizers?: string[]; fail?: boolean } = {},
): Promise<Job> {
  return jobs().create({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS },
    spec: {
      ...(opts.ttl !== undefined ? { ttlSecondsAfterFinished: opts.ttl } : {}),
      ...(opts.fail ? { backoffLimit: 0 } : {}),
      template: {
        metadata: {
          ...(opts.podFinalizers ? { finalizers: opts.podFinalizers } : {}),
          ...(opts.fail ? { annotations: { [FAIL_ANNOTATION]: 'true' } } : {}),
        },
        spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox', command: ['true'] }] },
      },
    },
  } as Job);
}

async function getJob(name: string): Promise<Job | undefined> {
  try {
    return await jobs().get(name, { namespace: NS });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The Job once it has a Complete or Failed condition that is True, and when it got it (ms). */
async function finished(name: string): Promise<{ job: Job; at: number }> {
  const job = await eventually(async () => {
    const j = await getJob(name);
    return j?.status?.conditions?.some(
      (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    )
      ? j
      : undefined;
  }, `${name} to finish`);
  const condition = job.status!.conditions!.find((c) => c.type === 'Complete' || c.type === 'Failed')!;
  return { job, at: parseTime(condition.lastTransitionTime!) };
}

const podsOf = async (job: string): Promise<Pod[]> =>
  (await pods().list({ namespace: NS, labelSelector: `job-name=${job}` })).items;

test('a Job with ttlSecondsAfterFinished 0 is deleted in the foreground as soon as it completes', async () => {
  await createJob('ttl-zero', { ttl: 0, podFinalizers: [HOLD] });
  // Foreground: the Job waits, marked, while its pod (held by a finalizer) is being deleted.
  const deleting = await eventually(async () => {
    const j = await getJob('ttl-zero');
    return j?.metadata?.deletionTimestamp ? j : undefined;
  }, 'the Job to be deleted');
  expect(deleting.metadata?.finalizers).toContain('foregroundDeletion');
  expect(deleting.status?.conditions?.find((c) => c.type === 'Complete')?.status).toBe('True');
  const [pod] = await eventually(async () => {
    const list = await podsOf('ttl-zero');
    return list.length === 1 && list[0]!.metadata?.deletionTimestamp ? list : undefined;
  }, 'its pod to be deleted');
  await pods().patch(pod!.metadata!.name!, 'merge', { metadata: { finalizers: null } }, { namespace: NS });
  await eventually(async () => (await getJob('ttl-zero')) === undefined, 'the Job to go');
  expect(await podsOf('ttl-zero')).toEqual([]);
});

test('a failed Job with ttlSecondsAfterFinished 0 is deleted too; a Job without one is kept', async () => {
  await createJob('keep');
  await createJob('failed-ttl-zero', { ttl: 0, fail: true });
  await eventually(async () => (await getJob('failed-ttl-zero')) === undefined, 'the failed Job to go');
  await finished('keep');
  await sleep(1_000);
  expect((await getJob('keep'))?.metadata?.deletionTimestamp).toBeUndefined();
});

test('a Job with ttlSecondsAfterFinished 3 is kept 3 s after it finished, then deleted', async () => {
  await createJob('ttl-three', { ttl: 3 });
  const { at } = await finished('ttl-three');
  // lastTransitionTime has whole seconds: expiry is at+3s, at most a second before finish+3s.
  expect(Date.now()).toBeLessThan(at + 3_000);
  expect((await getJob('ttl-three'))?.metadata?.deletionTimestamp).toBeUndefined();
  await eventually(async () => (await getJob('ttl-three')) === undefined, 'the Job to go', 15_000);
  expect(Date.now()).toBeGreaterThanOrEqual(at + 3_000);
});

test('a Job with a one-hour TTL stays until the clock has passed it', async () => {
  await createJob('ttl-hour', { ttl: 3600 });
  await finished('ttl-hour');
  // A change to the Job has it looked at again: not expired yet.
  await cluster.kubectl('label', 'job', 'ttl-hour', '-n', NS, 'first-look=yes');
  await sleep(1_000);
  expect((await getJob('ttl-hour'))?.metadata?.deletionTimestamp).toBeUndefined();

  cluster.advance(3_600_000);
  await cluster.kubectl('label', 'job', 'ttl-hour', '-n', NS, 'second-look=yes');
  await eventually(async () => (await getJob('ttl-hour')) === undefined, 'the Job to go');
  expect(await podsOf('ttl-hour')).toEqual([]);
  // The Job without a TTL is still kept, however late it is.
  await cluster.kubectl('label', 'job', 'keep', '-n', NS, 'seen=late');
  await sleep(1_000);
  expect(await getJob('keep')).toBeDefined();
});

test('shortening the TTL of a finished Job deletes it once the new TTL has passed', async () => {
  await createJob('ttl-changed', { ttl: 7200 });
  await finished('ttl-changed');
  await sleep(500);
  expect(await getJob('ttl-changed')).toBeDefined();
  await jobs().patch('ttl-changed', 'merge', { spec: { ttlSecondsAfterFinished: 0 } }, { namespace: NS });
  await eventually(async () => (await getJob('ttl-changed')) === undefined, 'the Job to go');
});
