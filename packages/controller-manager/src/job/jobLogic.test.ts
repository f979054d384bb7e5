import type { Job, Pod } from '@orch/api';
import {
  isJobFinished,
  jobBackoffDelay,
  jobComplete,
  pastActiveDeadline,
  pastBackoffLimitOnFailure,
  wantActive,
} from './jobLogic';

const job = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): Job =>
  ({ metadata: { name: 'j' }, spec, status }) as Job;

test('wanted active pods: parallelism capped by the remaining completions', () => {
  expect(wantActive(job({ completions: 3, parallelism: 2 }), 0, 0)).toBe(2);
  expect(wantActive(job({ completions: 3, parallelism: 2 }), 1, 2)).toBe(1);
  expect(wantActive(job({ completions: 3, parallelism: 2 }), 0, 3)).toBe(0);
  // Work queue jobs (no completions): stop adding once one succeeded.
  expect(wantActive(job({ parallelism: 4 }), 2, 0)).toBe(4);
  expect(wantActive(job({ parallelism: 4 }), 2, 1)).toBe(2);
});

test('completion: all completions and nothing active, or any success for work queues', () => {
  expect(jobComplete(job({ completions: 3 }), 0, 3)).toBe(true);
  expect(jobComplete(job({ completions: 3 }), 1, 3)).toBe(false);
  expect(jobComplete(job({}), 0, 1)).toBe(true);
  expect(jobComplete(job({}), 1, 1)).toBe(false);
});

test('retry backoff: 0, 10 s, 20 s, 40 s ... capped at 6 minutes', () => {
  expect([0, 1, 2, 3, 6, 7, 20].map(jobBackoffDelay)).toEqual([
    0, 10_000, 20_000, 40_000, 320_000, 360_000, 360_000,
  ]);
});

test('activeDeadlineSeconds counts from startTime', () => {
  const j = job({ activeDeadlineSeconds: 30 }, { startTime: '2024-01-01T00:00:00Z' });
  expect(pastActiveDeadline(j, Date.parse('2024-01-01T00:00:29Z'))).toBe(false);
  expect(pastActiveDeadline(j, Date.parse('2024-01-01T00:00:30Z'))).toBe(true);
  expect(pastActiveDeadline(job({}, { startTime: '2024-01-01T00:00:00Z' }), Date.now())).toBe(false);
});

test('restartPolicy OnFailure: container restarts of running pods count against backoffLimit', () => {
  const running = (restarts: number): Pod =>
    ({ status: { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: restarts }] } }) as Pod;
  const onFailure = (limit: number): Job =>
    job({ backoffLimit: limit, template: { spec: { restartPolicy: 'OnFailure' } } });
  expect(pastBackoffLimitOnFailure(onFailure(2), [running(1)])).toBe(false);
  expect(pastBackoffLimitOnFailure(onFailure(2), [running(1), running(1)])).toBe(true);
  expect(pastBackoffLimitOnFailure(onFailure(0), [running(1)])).toBe(true);
  // With Never, restarts do not happen: failed pods are counted by the controller instead.
  expect(
    pastBackoffLimitOnFailure(job({ backoffLimit: 0, template: { spec: { restartPolicy: 'Never' } } }), [
      running(5),
    ]),
  ).toBe(false);
});

test('finished means a True Complete or Failed condition', () => {
  expect(isJobFinished(job({}, { conditions: [{ type: 'Complete', status: 'True' }] }))).toBe(true);
  expect(isJobFinished(job({}, { conditions: [{ type: 'Failed', status: 'False' }] }))).toBe(false);
});
