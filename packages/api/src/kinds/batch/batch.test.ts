import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import { ProtobufCodec } from '../../protobuf/protobuf-codec';
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
  PodFailurePolicyOnExitCodesRequirementSchema,
  PodFailurePolicyOnPodConditionsPatternSchema,
  PodFailurePolicyRuleSchema,
  PodFailurePolicySchema,
  UncountedTerminatedPodsSchema,
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
      completionMode: 9,
      suspend: 10,
      podFailurePolicy: 11,
      backoffLimitPerIndex: 12,
      maxFailedIndexes: 13,
      podReplacementPolicy: 14,
    });
    expect(protos(JobStatusSchema)).toEqual({
      conditions: 1,
      startTime: 2,
      completionTime: 3,
      active: 4,
      succeeded: 5,
      failed: 6,
      completedIndexes: 7,
      uncountedTerminatedPods: 8,
      ready: 9,
      failedIndexes: 10,
      terminating: 11,
    });
    expect(protos(UncountedTerminatedPodsSchema)).toEqual({ succeeded: 1, failed: 2 });
    expect(protos(PodFailurePolicySchema)).toEqual({ rules: 1 });
    expect(protos(PodFailurePolicyRuleSchema)).toEqual({ action: 1, onExitCodes: 2, onPodConditions: 3 });
    expect(protos(PodFailurePolicyOnExitCodesRequirementSchema)).toEqual({
      containerName: 1,
      operator: 2,
      values: 3,
    });
    expect(protos(PodFailurePolicyOnPodConditionsPatternSchema)).toEqual({ type: 1, status: 2 });
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
      timeZone: 8,
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
    for (const f of [
      'completions',
      'selector',
      'template',
      'completionMode',
      'podFailurePolicy',
      'backoffLimitPerIndex',
    ])
      expect(node(JobSpecSchema, f)[OrchKeyword.immutable]).toBe(true);
    for (const f of ['suspend', 'maxFailedIndexes', 'podReplacementPolicy', 'parallelism'])
      expect(node(JobSpecSchema, f)[OrchKeyword.immutable]).toBeUndefined();
    expect(node(JobSpecSchema, 'completionMode').enum).toEqual(['Indexed', 'NonIndexed']);
    expect(node(JobSpecSchema, 'podReplacementPolicy').enum).toEqual(['Failed', 'TerminatingOrFailed']);
    // Only SetDefaults_Job defaults these: a CronJob's job template is not defaulted.
    for (const f of ['completionMode', 'suspend', 'podReplacementPolicy', 'backoffLimit'])
      expect(node(JobSpecSchema, f).default).toBeUndefined();
  });

  it('round-trips the new Job fields through protobuf at their Kubernetes numbers', () => {
    const codec = new ProtobufCodec([JobKind]);
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'idx', namespace: 'default' },
      spec: {
        completions: 3,
        completionMode: 'Indexed',
        suspend: true,
        backoffLimitPerIndex: 1,
        maxFailedIndexes: 2,
        podReplacementPolicy: 'Failed',
        podFailurePolicy: {
          rules: [
            { action: 'FailIndex', onExitCodes: { containerName: 'pi', operator: 'In', values: [1, 42] } },
            { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          ],
        },
        template: podTemplate('Never'),
      },
      status: {
        active: 1,
        ready: 1,
        terminating: 2,
        completedIndexes: '0,2',
        failedIndexes: '1',
        uncountedTerminatedPods: { succeeded: ['a', 'b'], failed: ['c'] },
      },
    };
    const wire = codec.encode(job);
    expect(codec.decode(wire)).toEqual(job);
    // JobSpec.suspend is field 10 (varint: key 0x50, value 1) and completionMode field 9 (key 0x4a).
    const bytes = Buffer.from(wire);
    expect(bytes.includes(Buffer.from([0x50, 0x01]))).toBe(true);
    expect(bytes.includes(Buffer.from([0x4a, 0x07, ...Buffer.from('Indexed')]))).toBe(true);
    // JobStatus.completedIndexes is field 7 (key 0x3a), terminating field 11 (key 0x58).
    expect(bytes.includes(Buffer.from([0x3a, 0x03, ...Buffer.from('0,2')]))).toBe(true);
    expect(bytes.includes(Buffer.from([0x58, 0x02]))).toBe(true);
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

  it('defaults the v1.29 fields as SetDefaults_Job does', () => {
    const plain = defaultJob({ spec: { template: podTemplate('Never') } });
    expect(plain.spec).toMatchObject({
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      backoffLimit: 6,
    });
    const kept = defaultJob({
      spec: { completionMode: 'Indexed', completions: 2, suspend: true, template: podTemplate('Never') },
    });
    expect(kept.spec).toMatchObject({ completionMode: 'Indexed', suspend: true });
    // backoffLimitPerIndex: backoffLimit defaults to max int32.
    const perIndex = defaultJob({
      spec: {
        completionMode: 'Indexed',
        completions: 2,
        backoffLimitPerIndex: 1,
        template: podTemplate('Never'),
      },
    });
    expect(perIndex.spec!.backoffLimit).toBe(2147483647);
    const explicit = defaultJob({
      spec: { backoffLimitPerIndex: 1, backoffLimit: 3, template: podTemplate('Never') },
    });
    expect(explicit.spec!.backoffLimit).toBe(3);
    // podFailurePolicy: replacement waits for failed pods; condition patterns match True by default.
    const withPolicy = defaultJob({
      spec: {
        podFailurePolicy: {
          rules: [
            { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }, { type: 'X', status: '' }] },
          ],
        },
        template: podTemplate('Never'),
      },
    });
    expect(withPolicy.spec!.podReplacementPolicy).toBe('Failed');
    expect(withPolicy.spec!.podFailurePolicy!.rules![0]!.onPodConditions).toEqual([
      { type: 'DisruptionTarget', status: 'True' },
      { type: 'X', status: 'True' },
    ]);
    const chosen = defaultJob({
      spec: { podReplacementPolicy: 'Failed', template: podTemplate('Never') },
    });
    expect(chosen.spec!.podReplacementPolicy).toBe('Failed');
  });

  it('validates completionMode, backoffLimitPerIndex and maxFailedIndexes with Kubernetes messages', () => {
    const spec = (fields: Record<string, unknown>, restartPolicy = 'Never') => ({
      template: podTemplate(restartPolicy),
      ...fields,
    });
    expect(run(JobSpecSchema, spec({ completionMode: 'Indexed', completions: 3 }), 'spec')).toEqual([]);
    expect(run(JobSpecSchema, spec({ completionMode: 'Indexed' }), 'spec')).toEqual([
      'spec.completions: Required value: when completion mode is Indexed',
    ]);
    expect(
      run(JobSpecSchema, spec({ completionMode: 'Indexed', completions: 1, parallelism: 100001 }), 'spec'),
    ).toEqual([
      'spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed',
    ]);
    expect(run(JobSpecSchema, spec({ backoffLimitPerIndex: 1 }), 'spec')).toEqual([
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
    ]);
    expect(run(JobSpecSchema, spec({ completionMode: 'NonIndexed', maxFailedIndexes: 1 }), 'spec')).toEqual([
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
      'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
    ]);
    expect(
      run(
        JobSpecSchema,
        spec({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, maxFailedIndexes: 3 }),
        'spec',
      ),
    ).toEqual(['spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions']);
    expect(
      run(
        JobSpecSchema,
        spec({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: -1, maxFailedIndexes: -1 }),
        'spec',
      ),
    ).toEqual([
      'spec.backoffLimitPerIndex: Invalid value: -1: must be greater than or equal to 0',
      'spec.maxFailedIndexes: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(
      run(
        JobSpecSchema,
        spec({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1 }, 'OnFailure'),
        'spec',
      ),
    ).toEqual([
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when backoffLimitPerIndex is specified',
    ]);
    expect(
      run(
        JobSpecSchema,
        spec({ completionMode: 'Indexed', completions: 100001, backoffLimitPerIndex: 1, parallelism: 10001 }),
        'spec',
      ),
    ).toEqual([
      'spec.maxFailedIndexes: Required value: must be specified when completions is above 100000',
      'spec.parallelism: Invalid value: 10001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
    ]);
  });

  it('validates podFailurePolicy and podReplacementPolicy with Kubernetes messages', () => {
    const spec = (
      podFailurePolicy: unknown,
      extra: Record<string, unknown> = {},
      restartPolicy = 'Never',
    ) => ({
      template: podTemplate(restartPolicy),
      podFailurePolicy,
      ...extra,
    });
    const ok = {
      rules: [
        { action: 'FailJob', onExitCodes: { containerName: 'pi', operator: 'In', values: [1, 2, 42] } },
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        { action: 'Count', onExitCodes: { operator: 'NotIn', values: [0] } },
      ],
    };
    expect(run(JobSpecSchema, spec(ok), 'spec')).toEqual([]);
    expect(run(JobSpecSchema, spec(ok, {}, 'OnFailure'), 'spec')).toEqual([
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
    expect(run(JobSpecSchema, spec(ok, { podReplacementPolicy: 'TerminatingOrFailed' }), 'spec')).toEqual([
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
    ]);
    expect(
      run(
        JobSpecSchema,
        spec({ rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }] }),
        'spec',
      ),
    ).toEqual([
      'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
    ]);
    expect(
      run(
        JobSpecSchema,
        spec(
          { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }] },
          { completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 0 },
        ),
        'spec',
      ),
    ).toEqual([]);
    const bad = {
      rules: [
        { action: 'Terminate', onExitCodes: { containerName: 'nope', operator: 'Is', values: [3, 0, 3] } },
        { onExitCodes: { operator: 'In', values: [0] }, onPodConditions: [{ type: 'Ready' }] },
        { action: 'Count' },
        { action: 'Ignore', onExitCodes: { operator: 'In', values: [] } },
      ],
    };
    expect(run(JobSpecSchema, spec(bad), 'spec')).toEqual([
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Terminate": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Is": supported values: "In", "NotIn"',
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "nope": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0,3]: must be ordered',
      'spec.podFailurePolicy.rules[1].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[1].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[1].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      'spec.podFailurePolicy.rules[2]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      // Kubernetes prints the bad list with Go's %#v ([]int32{}); only the detail is compared.
      expect.stringMatching(
        /^spec\.podFailurePolicy\.rules\[3\]\.onExitCodes\.values: Invalid value: .*: at least one value is required$/,
      ),
    ]);
    const many = {
      rules: Array.from({ length: 21 }, () => ({
        action: 'Ignore',
        onExitCodes: { operator: 'In', values: [1] },
      })),
    };
    expect(run(JobSpecSchema, spec(many), 'spec')).toEqual([
      'spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items',
    ]);
  });

  it('generates the selector from the uid for the registry', () => {
    const job: Job = { metadata: { name: 'pi', uid: 'a-b-c' }, spec: { template: podTemplate('Never') } };
    generateJobSelector(job);
    // Kubernetes v1.27+: the prefixed labels beside the legacy ones, the selector on the prefixed uid
    expect(job.spec!.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'a-b-c' } });
    expect(job.spec!.template.metadata!.labels).toEqual({
      'batch.kubernetes.io/job-name': 'pi',
      'job-name': 'pi',
      'batch.kubernetes.io/controller-uid': 'a-b-c',
      'controller-uid': 'a-b-c',
    });
    expect(run(JobSchema, job, '')).toEqual([]);
    // selecting on the prefixed uid requires the prefixed labels too
    const unprefixed: Job = structuredClone(job);
    delete unprefixed.spec!.template.metadata!.labels!['batch.kubernetes.io/job-name'];
    expect(run(JobSchema, unprefixed, '')).toEqual([
      'spec.template.metadata.labels[batch.kubernetes.io/job-name]: Required value: pi',
    ]);
    // a job stored before v1.27 selects on the legacy label alone and stays valid without the others
    const legacy: Job = {
      metadata: { name: 'pi', uid: 'a-b-c' },
      spec: {
        selector: { matchLabels: { 'controller-uid': 'a-b-c' } },
        template: podTemplate('Never', { 'controller-uid': 'a-b-c', 'job-name': 'pi' }),
      },
    };
    expect(run(JobSchema, legacy, '')).toEqual([]);
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
    // the selector prints as Kubernetes' FormatLabelSelector: <none> when empty, <error> when invalid
    const selector = JobKind.columns!.find((c) => c.name === 'Selector')!;
    expect(selector.cell({ ...job, spec: { ...job.spec!, selector: {} } }, now)).toBe('<none>');
    expect(
      selector.cell(
        { ...job, spec: { ...job.spec!, selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } } },
        now,
      ),
    ).toBe('<error>');
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

  it('validates timeZone and time zones in the schedule with Kubernetes messages', () => {
    const spec = (schedule: string, timeZone?: string) =>
      run(
        CronJobSpecSchema,
        { schedule, jobTemplate: {}, ...(timeZone === undefined ? {} : { timeZone }) },
        'spec',
      );
    expect(spec('0 9 * * 1-5', 'America/New_York')).toEqual([]);
    expect(spec('0 9 * * *', 'Etc/UTC')).toEqual([]);
    expect(spec('0 9 * * *', '')).toEqual([
      'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string',
    ]);
    expect(spec('0 9 * * *', 'Local')).toEqual([
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ]);
    expect(spec('0 9 * * *', 'Mars/Olympus_Mons')).toEqual([
      'spec.timeZone: Invalid value: "Mars/Olympus_Mons": unknown time zone Mars/Olympus_Mons',
    ]);
    expect(spec('0 9 * * *', '../etc/passwd')).toEqual([
      'spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd',
    ]);
    expect(spec('TZ=UTC 0 9 * * *', 'UTC')).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 9 * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
    expect(spec('CRON_TZ=Europe/Paris 0 9 * * *')).toEqual([
      'spec.schedule: Invalid value: "CRON_TZ=Europe/Paris 0 9 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
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
