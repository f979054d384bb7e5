import { compileKind, errorMessage } from '../../validation';
import { CronJobKind, JobKind, generateJobSelector, type CronJob, type Job } from './index';

/** Job and CronJob through the compiled defaulting and validation, in the registry's order. */

const podSpec = (restartPolicy?: string) => ({ restartPolicy, containers: [{ name: 'pi', image: 'perl' }] });

describe('batch through the compiled kind', () => {
  it('creates a Job: defaults, generated selector, validation', () => {
    const compiled = compileKind(JobKind);
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', namespace: 'default', uid: '6f1c' },
      spec: { template: { spec: podSpec('Never') } },
    };
    compiled.default(job);
    generateJobSelector(job);
    expect(job.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': '6f1c' } },
    });
    expect(job.spec!.template.metadata!.labels).toEqual({
      'batch.kubernetes.io/controller-uid': '6f1c',
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': '6f1c',
      'job-name': 'pi',
    });
    expect(compiled.validate(job)).toEqual([]);
  });

  it('refuses the default restart policy of pods', () => {
    const compiled = compileKind(JobKind);
    const job: Job = {
      metadata: { name: 'pi', namespace: 'default', uid: 'u' },
      spec: { template: { spec: podSpec() } },
    };
    compiled.default(job);
    generateJobSelector(job);
    expect(compiled.validate(job).map(errorMessage)).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
    ]);
  });

  it('accepts suspend and completionMode Indexed (kubectl sends fieldValidation=Strict)', () => {
    const compiled = compileKind(JobKind);
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'idx', namespace: 'default', uid: 'u1' },
      spec: {
        completions: 3,
        completionMode: 'Indexed',
        suspend: true,
        template: { spec: podSpec('Never') },
      },
    };
    expect(compiled.prune(structuredClone(job)).unknown).toEqual([]);
    compiled.default(job);
    generateJobSelector(job);
    expect(job.spec).toMatchObject({
      completionMode: 'Indexed',
      suspend: true,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    expect(compiled.validate(job)).toEqual([]);
  });

  it('keeps completionMode, podFailurePolicy and backoffLimitPerIndex immutable; suspend may change', () => {
    const compiled = compileKind(JobKind);
    const old: Job = {
      metadata: { name: 'idx', namespace: 'default', uid: 'u1', resourceVersion: '1' },
      spec: {
        completions: 3,
        completionMode: 'Indexed',
        backoffLimitPerIndex: 1,
        suspend: true,
        template: { spec: podSpec('Never') },
      },
    };
    compiled.default(old);
    generateJobSelector(old);
    const resumed = structuredClone(old);
    resumed.spec!.suspend = false;
    resumed.spec!.maxFailedIndexes = 1;
    expect(compiled.validateUpdate(resumed, old)).toEqual([]);
    const changed = structuredClone(old);
    changed.spec!.completionMode = 'NonIndexed';
    changed.spec!.backoffLimitPerIndex = 2;
    changed.spec!.podFailurePolicy = {
      rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
    };
    changed.spec!.podReplacementPolicy = 'Failed';
    expect(compiled.validateUpdate(changed, old).map(errorMessage)).toEqual(
      expect.arrayContaining([
        'spec.completionMode: Invalid value: "NonIndexed": field is immutable',
        'spec.backoffLimitPerIndex: Invalid value: 2: field is immutable',
        expect.stringMatching(/^spec\.podFailurePolicy: Invalid value: .*: field is immutable$/),
      ]),
    );
  });

  it('takes the new job fields in a CronJob job template without defaulting them', () => {
    const compiled = compileKind(CronJobKind);
    const cj: CronJob = {
      metadata: { name: 'hello', namespace: 'default' },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: {
          spec: {
            completions: 2,
            completionMode: 'Indexed',
            suspend: true,
            podFailurePolicy: {
              rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
            },
            template: { spec: podSpec('Never') },
          },
        },
      },
    };
    expect(compiled.prune(structuredClone(cj)).unknown).toEqual([]);
    compiled.default(cj);
    expect(cj.spec!.jobTemplate.spec!.podReplacementPolicy).toBeUndefined();
    expect(compiled.validate(cj)).toEqual([]);
    const bad = structuredClone(cj);
    delete bad.spec!.jobTemplate.spec!.completions;
    bad.spec!.jobTemplate.spec!.template.spec!.restartPolicy = 'OnFailure';
    expect(compiled.validate(bad).map(errorMessage)).toEqual([
      'spec.jobTemplate.spec.completions: Required value: when completion mode is Indexed',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
  });

  it('defaults a CronJob and checks its schedule', () => {
    const compiled = compileKind(CronJobKind);
    const cj: CronJob = {
      metadata: { name: 'hello', namespace: 'default' },
      spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: podSpec('OnFailure') } } } },
    };
    compiled.default(cj);
    expect(cj.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(cj.spec!.jobTemplate.spec!.backoffLimit).toBeUndefined();
    expect(compiled.validate(cj)).toEqual([]);
    const bad = structuredClone(cj);
    bad.spec!.schedule = 'every minute';
    bad.spec!.concurrencyPolicy = 'Sometimes' as never;
    const messages = compiled.validate(bad).map(errorMessage);
    expect(messages).toContain(
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
    );
    expect(messages.some((m) => m.startsWith('spec.schedule: Invalid value: "every minute"'))).toBe(true);
  });
});
