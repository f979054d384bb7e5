import type { Job } from '@orch/api';
import { jobFinishTime, needsCleanup, ttlTimeLeft } from './ttlTimeLeft';

const T0 = Date.parse('2024-01-01T00:00:00Z');

function job(
  opts: {
    ttl?: number;
    condition?: { type: string; status?: string; at?: string };
    completionTime?: string;
  } = {},
): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'j', namespace: 'default' },
    spec: {
      ...(opts.ttl !== undefined ? { ttlSecondsAfterFinished: opts.ttl } : {}),
      template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } },
    },
    status: {
      ...(opts.completionTime ? { completionTime: opts.completionTime } : {}),
      conditions: opts.condition
        ? [
            {
              type: opts.condition.type,
              status: opts.condition.status ?? 'True',
              ...(opts.condition.at ? { lastTransitionTime: opts.condition.at } : {}),
            },
          ]
        : [],
    },
  } as Job;
}

describe('TTL after finished', () => {
  test('a Job needs cleanup when it has a TTL (0 included) and a Complete or Failed condition True', () => {
    const done = { type: 'Complete', at: '2024-01-01T00:00:00Z' };
    expect(needsCleanup(job({ ttl: 0, condition: done }))).toBe(true);
    expect(needsCleanup(job({ ttl: 100, condition: { ...done, type: 'Failed' } }))).toBe(true);
    expect(needsCleanup(job({ condition: done }))).toBe(false);
    expect(needsCleanup(job({ ttl: 100 }))).toBe(false);
    expect(needsCleanup(job({ ttl: 100, condition: { ...done, status: 'False' } }))).toBe(false);
    expect(needsCleanup(job({ ttl: 100, condition: { ...done, type: 'Suspended' } }))).toBe(false);
  });

  test('the finish time is the condition lastTransitionTime, else status.completionTime', () => {
    expect(jobFinishTime(job({ ttl: 1, condition: { type: 'Complete', at: '2024-01-01T00:00:10Z' } }))).toBe(
      T0 + 10_000,
    );
    expect(
      jobFinishTime(job({ ttl: 1, condition: { type: 'Complete' }, completionTime: '2024-01-01T00:00:20Z' })),
    ).toBe(T0 + 20_000);
    expect(() => jobFinishTime(job({ ttl: 1, condition: { type: 'Failed' } }))).toThrow(
      'unable to find the time when the Job default/j finished',
    );
    expect(() => jobFinishTime(job({ ttl: 1 }))).toThrow('unable to find the status');
  });

  test('the time left is finish time + TTL - now, expired at 0 and below', () => {
    const finished = (ttl: number): Job =>
      job({ ttl, condition: { type: 'Complete', at: '2024-01-01T00:00:00Z' } });
    expect(ttlTimeLeft(finished(0), T0)).toEqual({ finishAt: T0, expireAt: T0, remainingMs: 0 });
    expect(ttlTimeLeft(finished(100), T0 + 40_000)).toEqual({
      finishAt: T0,
      expireAt: T0 + 100_000,
      remainingMs: 60_000,
    });
    expect(ttlTimeLeft(finished(100), T0 + 100_000).remainingMs).toBe(0);
    expect(ttlTimeLeft(finished(100), T0 + 250_000).remainingMs).toBe(-150_000);
    // A Job that finished in the future (clock skew) waits its whole TTL from that time.
    expect(ttlTimeLeft(finished(10), T0 - 5_000).remainingMs).toBe(15_000);
  });

  test('a Job that does not need cleanup has no time left to compute', () => {
    expect(() =>
      ttlTimeLeft(job({ condition: { type: 'Complete', at: '2024-01-01T00:00:00Z' } }), T0),
    ).toThrow('should not be cleaned up');
  });
});
