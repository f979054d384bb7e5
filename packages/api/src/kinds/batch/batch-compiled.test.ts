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
      selector: { matchLabels: { 'controller-uid': '6f1c' } },
    });
    expect(job.spec!.template.metadata!.labels).toEqual({ 'controller-uid': '6f1c', 'job-name': 'pi' });
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
