import type { Pod } from '@orch/api';
import { podPhase, processPodStatus, type ContainerRunState } from './processPodStatus';

const pod = (restartPolicy: string) =>
  ({ metadata: { name: 'p' }, spec: { restartPolicy } }) as unknown as Pod;
const c = (
  state: ContainerRunState['state'],
  lastState: ContainerRunState['lastState'] = {},
): ContainerRunState => ({
  name: 'c',
  image: 'i',
  restartCount: 0,
  state,
  lastState,
  ready: false,
  started: false,
});
const running = c({ running: { startedAt: '2026-01-01T00:00:00Z' } });
const waiting = c({ waiting: { reason: 'ContainerCreating' } });
const ok = c({ terminated: { exitCode: 0 } });
const bad = c({ terminated: { exitCode: 1 } });
const backoff = c({ waiting: { reason: 'CrashLoopBackOff' } }, { terminated: { exitCode: 1 } });

describe('podPhase', () => {
  it.each([
    ['Always', [], [waiting], 'Pending'],
    ['Always', [], [running, waiting], 'Pending'],
    ['Always', [], [running, ok], 'Running'],
    ['Always', [], [backoff], 'Running'],
    ['Always', [], [ok], 'Running'],
    ['OnFailure', [], [ok, ok], 'Succeeded'],
    ['OnFailure', [], [ok, backoff], 'Running'],
    ['Never', [], [ok, ok], 'Succeeded'],
    ['Never', [], [ok, bad], 'Failed'],
    ['Never', [], [running, bad], 'Running'],
    ['Never', [waiting], [waiting], 'Pending'],
    ['Never', [bad], [waiting], 'Failed'],
    ['OnFailure', [backoff], [waiting], 'Pending'],
    ['Never', [ok], [running], 'Running'],
  ] as [string, ContainerRunState[], ContainerRunState[], string][])(
    '%s, init %j, containers %j: %s',
    (policy, init, app, phase) => {
      expect(podPhase(pod(policy), init, app)).toBe(phase);
    },
  );

  it('writes a deleted pod whose processes stopped as Succeeded, or Failed when one failed', () => {
    const ctx = { acceptedAt: 0, podIP: '10.0.0.1', hostIP: '172.18.0.1' };
    expect(processPodStatus(pod('Always'), [], [ok], ctx, 0, true).phase).toBe('Succeeded');
    expect(
      processPodStatus(pod('Always'), [], [ok, c({ terminated: { exitCode: 143 } })], ctx, 0, true).phase,
    ).toBe('Failed');
    expect(processPodStatus(pod('Always'), [], [backoff], ctx, 0, true).phase).toBe('Failed');
  });
});
