import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobKind, PodKind, type Job } from '@orch/api';
import { eventually } from '@orch/apiserver';
import { clientFor } from '@orch/client';
import { startCluster, type Cluster } from './harness';

jest.setTimeout(60_000);

let cluster: Cluster;
let dir: string;
beforeAll(async () => {
  cluster = await startCluster();
  dir = mkdtempSync(join(tmpdir(), 'orch-job-modes-'));
});
afterAll(async () => {
  await cluster?.close();
  rmSync(dir, { recursive: true, force: true });
});

const INDEX = 'batch.kubernetes.io/job-completion-index';

/** Applies a manifest with kubectl, which asks for strict field validation. */
async function apply(name: string, manifest: unknown): Promise<string> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(manifest));
  return cluster.kubectl('apply', '-f', file);
}

const job = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default' },
  spec: {
    ...spec,
    template: {
      spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox', command: ['true'] }] },
    },
  },
});

const conditionOf = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type);

test('kubectl apply of a suspended Indexed Job: no pods until resumed, then one pod per index to completion', async () => {
  const jobs = clientFor(cluster.rest, JobKind);
  const pods = clientFor(cluster.rest, PodKind);
  expect(
    await apply(
      'idx',
      job('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed', suspend: true }),
    ),
  ).toContain('job.batch/idx created');
  const suspended = await eventually(
    async () => {
      const j = await jobs.get('idx', { namespace: 'default' });
      return conditionOf(j, 'Suspended') ? j : undefined;
    },
    'the Suspended condition',
    20_000,
  );
  expect(conditionOf(suspended, 'Suspended')).toMatchObject({ status: 'True', reason: 'JobSuspended' });
  expect(suspended.spec).toMatchObject({ backoffLimit: 6, podReplacementPolicy: 'TerminatingOrFailed' });
  expect(suspended.status?.startTime).toBeUndefined();
  expect((await pods.list({ namespace: 'default', labelSelector: 'job-name=idx' })).items).toHaveLength(0);

  await cluster.kubectl(
    'patch',
    'job/idx',
    '-n',
    'default',
    '--type=merge',
    '-p',
    '{"spec":{"suspend":false}}',
  );
  const done = await eventually(
    async () => {
      const j = await jobs.get('idx', { namespace: 'default' });
      return conditionOf(j, 'Complete')?.status === 'True' ? j : undefined;
    },
    'the job to complete',
    30_000,
  );
  expect(done.status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
  expect(conditionOf(done, 'Suspended')).toMatchObject({ status: 'False', reason: 'JobResumed' });
  expect(done.status?.startTime).toBeDefined();
  const list = (await pods.list({ namespace: 'default', labelSelector: 'job-name=idx' })).items;
  const byIndex = list.sort((a, b) =>
    a.metadata!.annotations![INDEX]!.localeCompare(b.metadata!.annotations![INDEX]!),
  );
  expect(byIndex.map((p) => p.metadata!.annotations![INDEX])).toEqual(['0', '1', '2']);
  expect(byIndex.map((p) => p.metadata!.labels![INDEX])).toEqual(['0', '1', '2']);
  expect(byIndex.map((p) => p.spec!.hostname)).toEqual(['idx-0', 'idx-1', 'idx-2']);
  expect(byIndex.every((p, i) => p.metadata!.name!.startsWith(`idx-${i}-`))).toBe(true);
  expect(byIndex[0]!.spec!.containers[0]!.env).toEqual([
    {
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${INDEX}']` } },
    },
  ]);
});

test('kubectl refuses an Indexed Job without completions, and unknown job fields', async () => {
  await expect(apply('bad', job('bad', { completionMode: 'Indexed', parallelism: 2 }))).rejects.toThrow(
    'spec.completions: Required value: when completion mode is Indexed',
  );
  // Strict field validation is what made suspend and completionMode fail before they were declared.
  await expect(apply('unknown', job('unknown', { completions: 1, bogus: true }))).rejects.toThrow(
    'unknown field "spec.bogus"',
  );
});
