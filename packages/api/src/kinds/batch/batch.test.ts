import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  CronJobKind,
  CronJobSchema,
  CronJobSpecSchema,
  CronJobStatusSchema,
  JobConditionSchema,
  JobKind,
  JobSchema,
  JobSpecSchema,
  JobStatusSchema,
  JobTemplateSpecSchema,
  batchKinds,
  generateJobSelector,
  type CronJob,
  type Job,
} from './index';

const node = (schema: TSchema, name: string) =>
  (schema as unknown as { properties: Record<string, Record<string, unknown>> }).properties[name]!;
const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);
const defaultJob = (job: Job): Job => {
  structHooks(JobSchema)!.defaults!(job);
  return job;
};

const podTemplate = (restartPolicy?: string, labels?: Record<string, string>) => ({
  metadata: labels ? { labels } : {},
  spec: { restartPolicy, containers: [{ name: 'pi', image: 'perl' }] },
});
const now = new Date('2021-01-01T01:00:00Z');

describe('batch declarations', () => {
  it('declares Job and CronJob (batch/v1 and deprecated batch/v1beta1)', () => {
    expect(batchKinds.map((k) => [k.kind, k.versions, k.shortNames, k.categories])).toEqual([
      ['Job', ['v1'], undefined, ['all']],
      ['CronJob', ['v1', 'v1beta1'], ['cj'], ['all']],
    ]);
    expect(CronJobKind.deprecatedVersions).toEqual({
      v1beta1: 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob',
    });
    expect(JobKind.subresources).toEqual({ status: true });
    expect(JobKind.selectableFields!['status.successful']!({ status: { succeeded: 4 } } as Job)).toBe('4');
  });

  it('uses Kubernetes protobuf numbers', () => {
    expect(protos(JobSpecSchema)).toEqual({
      parallelism: 1,
      completions: 2,
      activeDeadlineSeconds: 3,
      selector: 4,
      manualSelector: 5,
      template: 6,
      backoffLimit: 7,
      ttlSecondsAfterFinished: 8,
    });
    expect(protos(JobStatusSchema)).toEqual({
      conditions: 1,
      startTime: 2,
      completionTime: 3,
      active: 4,
      succeeded: 5,
      failed: 6,
    });
    expect(protos(JobConditionSchema)).toEqual({
      type: 1,
      status: 2,
      lastProbeTime: 3,
      lastTransitionTime: 4,
      reason: 5,
      message: 6,
    });
    expect(protos(CronJobSpecSchema)).toEqual({
      schedule: 1,
      startingDeadlineSeconds: 2,
      concurrencyPolicy: 3,
      suspend: 4,
      jobTemplate: 5,
      successfulJobsHistoryLimit: 6,
      failedJobsHistoryLimit: 7,
    });
    expect(protos(CronJobStatusSchema)).toEqual({ active: 1, lastScheduleTime: 4, lastSuccessfulTime: 5 });
    expect(protos(JobTemplateSpecSchema)).toEqual({ metadata: 1, spec: 2 });
    expect(node(JobStatusSchema, 'conditions')['x-kubernetes-patch-merge-key']).toBe('type');
    expect(node(JobSpecSchema, 'activeDeadlineSeconds')[OrchKeyword.protoType]).toBe('int64');
    for (const f of ['completions', 'selector', 'template'])
      expect(node(JobSpecSchema, f)[OrchKeyword.immutable]).toBe(true);
  });
});

describe('Job', () => {
  it('defaults completions and parallelism exactly as batch/v1 does', () => {
    const both = defaultJob({ spec: { template: podTemplate('Never') } });
    expect(both.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6 });
    const queue = defaultJob({ spec: { parallelism: 3, template: podTemplate('Never') } });
    expect(queue.spec!.completions).toBeUndefined();
    expect(queue.spec!.parallelism).toBe(3);
    const fixed = defaultJob({ spec: { completions: 5, backoffLimit: 0, template: podTemplate('Never') } });
    expect(fixed.spec).toMatchObject({ completions: 5, parallelism: 1, backoffLimit: 0 });
    const labelled = defaultJob({ spec: { template: podTemplate('Never', { app: 'pi' }) } });
    expect(labelled.metadata!.labels).toEqual({ app: 'pi' });
  });

  it('generates the selector from the uid for the registry', () => {
    const job: Job = { metadata: { name: 'pi', uid: 'a-b-c' }, spec: { template: podTemplate('Never') } };
    generateJobSelector(job);
    expect(job.spec!.selector).toEqual({ matchLabels: { 'controller-uid': 'a-b-c' } });
    expect(job.spec!.template.metadata!.labels).toEqual({ 'job-name': 'pi', 'controller-uid': 'a-b-c' });
    expect(run(JobSchema, job, '')).toEqual([]);
    const manual: Job = {
      metadata: { name: 'pi', uid: 'u' },
      spec: { manualSelector: true, template: podTemplate('Never') },
    };
    generateJobSelector(manual);
    expect(manual.spec!.selector).toBeUndefined();
    expect(run(JobSchema, manual, '')).toEqual(['spec.selector: Required value']);
  });

  it('validates with Kubernetes messages', () => {
    expect(run(JobSpecSchema, { template: podTemplate('Always') }, 'spec')).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ]);
    expect(run(JobSpecSchema, { template: podTemplate(), backoffLimit: -1 }, 'spec')).toEqual([
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ]);
    const tampered: Job = {
      metadata: { name: 'pi', uid: 'u1' },
      spec: {
        selector: { matchLabels: { 'controller-uid': 'other' } },
        template: podTemplate('Never', { 'job-name': 'pi', 'controller-uid': 'other' }),
      },
    };
    expect(
      run(JobSchema, tampered, '').map((m) => m.replace(/Invalid value: .*?: /, 'Invalid value: X: ')),
    ).toEqual([
      "spec.template.metadata.labels[controller-uid]: Invalid value: X: must be 'u1'",
      'spec.selector: Invalid value: X: `selector` not auto-generated',
    ]);
    const mismatch: Job = {
      metadata: { name: 'pi', uid: 'u1' },
      spec: {
        manualSelector: true,
        selector: { matchLabels: { app: 'a' } },
        template: podTemplate('Never', { app: 'b' }),
      },
    };
    expect(run(JobSchema, mismatch, '')).toEqual([
      expect.stringMatching(
        /^spec.template.metadata.labels: Invalid value: .*: `selector` does not match template `labels`$/,
      ),
    ]);
  });

  it('prints NAME COMPLETIONS DURATION AGE and the wide columns', () => {
    const job: Job = {
      metadata: { name: 'pi', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: {
        completions: 3,
        parallelism: 1,
        selector: { matchLabels: { 'controller-uid': 'u1' } },
        template: podTemplate('Never'),
      },
      status: { succeeded: 1, startTime: '2021-01-01T00:00:05Z', completionTime: '2021-01-01T00:00:47Z' },
    };
    expect(JobKind.columns!.map((c) => [c.name, c.priority ?? 0, c.cell(job, now)])).toEqual([
      ['Name', 0, 'pi'],
      ['Completions', 0, '1/3'],
      ['Duration', 0, '42s'],
      ['Age', 0, '60m'],
      ['Containers', 1, 'pi'],
      ['Images', 1, 'perl'],
      ['Selector', 1, 'controller-uid=u1'],
    ]);
    const queue: Job = {
      ...job,
      spec: { ...job.spec!, completions: undefined, parallelism: 4 },
      status: { startTime: '2021-01-01T00:30:00Z' },
    };
    expect(JobKind.columns![1]!.cell(queue, now)).toBe('0/1 of 4');
    expect(JobKind.columns![2]!.cell(queue, now)).toBe('30m');
    expect(JobKind.columns![2]!.cell({ ...job, status: {} }, now)).toBe('');
  });
});

describe('CronJob', () => {
  it('has doc 2 defaults with pointer semantics and a cron schedule', () => {
    expect(node(CronJobSpecSchema, 'concurrencyPolicy')).toMatchObject({
      default: 'Allow',
      enum: ['Allow', 'Forbid', 'Replace'],
    });
    expect(node(CronJobSpecSchema, 'suspend').default).toBe(false);
    expect(node(CronJobSpecSchema, 'successfulJobsHistoryLimit').default).toBe(3);
    expect(node(CronJobSpecSchema, 'failedJobsHistoryLimit').default).toBe(1);
    expect(node(CronJobSpecSchema, 'schedule')[OrchKeyword.format]).toBe('cron');
    expect(CronJobSpecSchema.required).toEqual(['schedule', 'jobTemplate']);
  });

  it('validates the name length, limits and job template', () => {
    const name = 'a'.repeat(53);
    expect(run(CronJobSchema, { metadata: { name } }, '')).toEqual([
      `metadata.name: Invalid value: "${name}": must be no more than 52 characters`,
    ]);
    expect(run(CronJobSchema, { metadata: { name: 'a'.repeat(52) } }, '')).toEqual([]);
    expect(
      run(
        CronJobSpecSchema,
        { schedule: '*/1 * * * *', jobTemplate: {}, successfulJobsHistoryLimit: -1 },
        'spec',
      ),
    ).toEqual(['spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0']);
    const template = {
      spec: { selector: { matchLabels: { a: 'b' } }, manualSelector: true, template: podTemplate('Never') },
    };
    expect(
      run(JobTemplateSpecSchema, template, 'spec.jobTemplate').map((m) =>
        m.replace(/Invalid value: .*?: /, 'Invalid value: X: '),
      ),
    ).toEqual([
      'spec.jobTemplate.spec.selector: Invalid value: X: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
  });

  it('prints NAME SCHEDULE SUSPEND ACTIVE LAST SCHEDULE AGE and the wide columns', () => {
    const cj: CronJob = {
      metadata: { name: 'hello', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: {
        schedule: '*/5 * * * *',
        suspend: false,
        jobTemplate: { spec: { template: podTemplate('OnFailure') } },
      },
      status: { active: [{ kind: 'Job', name: 'hello-1' }], lastScheduleTime: '2021-01-01T00:55:00Z' },
    };
    expect(CronJobKind.columns!.map((c) => [c.name, c.priority ?? 0, c.cell(cj, now)])).toEqual([
      ['Name', 0, 'hello'],
      ['Schedule', 0, '*/5 * * * *'],
      ['Suspend', 0, 'False'],
      ['Active', 0, 1],
      ['Last Schedule', 0, '5m'],
      ['Age', 0, '60m'],
      ['Containers', 1, 'pi'],
      ['Images', 1, 'perl'],
      ['Selector', 1, '<none>'],
    ]);
    const fresh: CronJob = { ...cj, spec: { ...cj.spec!, suspend: undefined }, status: {} };
    expect(CronJobKind.columns![2]!.cell(fresh, now)).toBe('<unset>');
    expect(CronJobKind.columns![4]!.cell(fresh, now)).toBe('<none>');
  });
});
