import type { Pod } from '@orch/api';
import {
  crashBackoffMs,
  simulatePodStatus,
  simulatedContainerID,
  simulatedExitCode,
  simulatedImageID,
  stoppedPodStatus,
  SIMULATED_EXIT_CODE_ANNOTATION,
} from './podTimeline';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const ctx = { acceptedAt: T0, podIP: '10.244.0.2', hostIP: '10.0.0.1' };
const opts = { startLatencyMs: 2000, runDurationMs: 3000 };
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function pod(restartPolicy: string, exitCode?: string, init = false): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'ns',
      uid: 'uid-1',
      ...(exitCode !== undefined ? { annotations: { [SIMULATED_EXIT_CODE_ANNOTATION]: exitCode } } : {}),
    },
    spec: {
      restartPolicy,
      nodeName: 'n',
      containers: [{ name: 'app', image: 'nginx' }],
      ...(init ? { initContainers: [{ name: 'setup', image: 'busybox' }] } : {}),
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: iso(T0 - 1000) }],
    },
  } as Pod;
}

/** The pod with the status it had at `at` written back, as the API would hold it. */
function at(p: Pod, ms: number) {
  const r = simulatePodStatus(p, ctx, opts, ms);
  return { ...r, pod: { ...p, status: r.status } as Pod };
}

function condition(p: Pod, type: string) {
  return p.status?.conditions?.find((c) => c.type === type);
}

describe('simulated pod timeline', () => {
  it('keeps the pod Pending with ContainerCreating for --pod-start-latency', () => {
    const { status, nextAt } = simulatePodStatus(pod('Always'), ctx, opts, T0 + 500);
    expect(status.phase).toBe('Pending');
    expect(nextAt).toBe(T0 + 2000);
    expect(status.podIP).toBeUndefined();
    expect(status.hostIP).toBe('10.0.0.1');
    expect(status.startTime).toBe(iso(T0));
    expect(status.containerStatuses).toEqual([
      {
        name: 'app',
        image: 'nginx',
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ContainerCreating' } },
        lastState: {},
      },
    ]);
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [app]',
    });
    expect(status.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime).toBe(
      iso(T0 - 1000),
    );
  });

  it('runs a restartPolicy Always pod for good: Running, ready, IDs and conditions', () => {
    const { pod: running, nextAt } = at(pod('Always'), T0 + 2000);
    expect(nextAt).toBeUndefined();
    expect(running.status).toMatchObject({
      phase: 'Running',
      podIP: '10.244.0.2',
      podIPs: [{ ip: '10.244.0.2' }],
      hostIP: '10.0.0.1',
    });
    const cs = running.status!.containerStatuses![0]!;
    expect(cs).toEqual({
      name: 'app',
      image: 'nginx',
      imageID: simulatedImageID('nginx'),
      containerID: simulatedContainerID('uid-1', 'app', 0),
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: iso(T0 + 2000) } },
      lastState: {},
    });
    expect(cs.imageID).toMatch(/^docker-pullable:\/\/nginx@sha256:[0-9a-f]{64}$/);
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    for (const type of ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled']) {
      expect(condition(running, type)?.status).toBe('True');
    }
    expect(condition(running, 'Ready')?.lastTransitionTime).toBe(iso(T0 + 2000));
    // A day later nothing changed, transition times included.
    expect(simulatePodStatus(running, ctx, opts, T0 + 86_400_000).status).toEqual(running.status);
  });

  it('runs a sidecar beside the containers, ready, and stops it when they finish', () => {
    const withSidecar = pod('Never');
    withSidecar.spec!.initContainers = [
      { name: 'setup', image: 'busybox' },
      { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
    ];
    const { pod: running } = at(withSidecar, T0 + 2000);
    const [setup, proxy] = running.status!.initContainerStatuses!;
    expect(setup!.state?.terminated?.reason).toBe('Completed');
    expect(proxy).toMatchObject({
      name: 'proxy',
      ready: true,
      started: true,
      state: { running: { startedAt: iso(T0 + 2000) } },
    });
    expect(condition(running, 'ContainersReady')?.status).toBe('True');
    const done = simulatePodStatus(running, ctx, opts, T0 + 5000).status;
    expect(done.phase).toBe('Succeeded');
    expect(done.initContainerStatuses![1]).toMatchObject({
      ready: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', finishedAt: iso(T0 + 5000) } },
    });
  });

  it('keeps a ready pod NotReady until every readiness gate condition is True', () => {
    const gated = pod('Always');
    gated.spec!.readinessGates = [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }];
    const { pod: running } = at(gated, T0 + 2000);
    expect(condition(running, 'ContainersReady')?.status).toBe('True');
    expect(condition(running, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message:
        'corresponding condition of pod readiness gate "example.com/lb" does not exist., corresponding condition of pod readiness gate "example.com/dns" does not exist.',
    });
    // another component reports one gate False, the other True
    running.status!.conditions = [
      ...running.status!.conditions!,
      { type: 'example.com/lb', status: 'False' },
      { type: 'example.com/dns', status: 'True' },
    ];
    const half = simulatePodStatus(running, ctx, opts, T0 + 3000).status;
    expect(half.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      message: 'the status of pod readiness gate "example.com/lb" is not "True", but False',
    });
    running.status = {
      ...half,
      conditions: half.conditions!.map((c) => (c.type === 'example.com/lb' ? { ...c, status: 'True' } : c)),
    };
    const ready = simulatePodStatus(running, ctx, opts, T0 + 4000).status;
    expect(ready.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    // the gates' own conditions are kept
    expect(ready.conditions?.find((c) => c.type === 'example.com/dns')?.status).toBe('True');
  });

  it('runs init containers to completion before the containers', () => {
    const pending = simulatePodStatus(pod('Always', undefined, true), ctx, opts, T0);
    expect(pending.status.containerStatuses![0]!.state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(pending.status.conditions?.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [setup]',
    });
    const { status } = simulatePodStatus(pod('Always', undefined, true), ctx, opts, T0 + 2000);
    expect(status.initContainerStatuses![0]).toMatchObject({
      name: 'setup',
      ready: true,
      restartCount: 0,
      state: {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: iso(T0 + 2000),
          finishedAt: iso(T0 + 2000),
        },
      },
    });
    expect(status.conditions?.find((c) => c.type === 'Initialized')?.status).toBe('True');
  });

  it('completes a restartPolicy Never pod after --pod-run-duration', () => {
    const { nextAt } = at(pod('Never'), T0 + 2000);
    expect(nextAt).toBe(T0 + 5000);
    const running = at(pod('Never'), T0 + 2000).pod;
    const { status, nextAt: after } = simulatePodStatus(running, ctx, opts, T0 + 5000);
    expect(after).toBeUndefined();
    expect(status.phase).toBe('Succeeded');
    expect(status.containerStatuses![0]).toMatchObject({
      ready: false,
      started: false,
      restartCount: 0,
      state: {
        terminated: {
          exitCode: 0,
          reason: 'Completed',
          startedAt: iso(T0 + 2000),
          finishedAt: iso(T0 + 5000),
          containerID: simulatedContainerID('uid-1', 'app', 0),
        },
      },
    });
    for (const type of ['Ready', 'ContainersReady']) {
      expect(status.conditions?.find((c) => c.type === type)).toMatchObject({
        status: 'False',
        reason: 'PodCompleted',
      });
    }
    expect(status.conditions?.find((c) => c.type === 'Initialized')).toMatchObject({
      status: 'True',
      reason: 'PodCompleted',
    });
  });

  it('reads the exit-code annotation', () => {
    expect(simulatedExitCode(pod('Never', '2'))).toBe(2);
    expect(simulatedExitCode(pod('Never', '0'))).toBe(0);
    expect(simulatedExitCode(pod('Never', 'x'))).toBeUndefined();
    expect(simulatedExitCode(pod('Never'))).toBeUndefined();
  });

  it('fails a restartPolicy Never pod with the annotated exit code', () => {
    const { status } = simulatePodStatus(pod('Never', '42'), ctx, opts, T0 + 5000);
    expect(status.phase).toBe('Failed');
    expect(status.containerStatuses![0]!.state?.terminated).toMatchObject({ exitCode: 42, reason: 'Error' });
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
    });
  });

  it('completes an OnFailure pod that exits 0 and restarts one that fails', () => {
    expect(simulatePodStatus(pod('OnFailure'), ctx, opts, T0 + 5000).status.phase).toBe('Succeeded');
    expect(simulatePodStatus(pod('OnFailure', '0'), ctx, opts, T0 + 5000).status.phase).toBe('Succeeded');
    const failing = simulatePodStatus(pod('OnFailure', '1'), ctx, opts, T0 + 5000);
    expect(failing.status.phase).toBe('Running');
    expect(failing.status.containerStatuses![0]!.state?.waiting?.reason).toBe('CrashLoopBackOff');
  });

  it('crash-loops with back-off 10 s doubling up to 5 min', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(crashBackoffMs)).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
    const p = pod('Always', '1');
    // Runs: [2s, 5s) exit, back-off 10 s; [15s, 18s) exit, back-off 20 s; [38s, 41s) ...
    const first = simulatePodStatus(p, ctx, opts, T0 + 5000);
    const cs = first.status.containerStatuses![0]!;
    expect(first.nextAt).toBe(T0 + 15_000);
    expect(cs.restartCount).toBe(0);
    expect(cs.ready).toBe(false);
    expect(cs.state?.waiting).toEqual({
      reason: 'CrashLoopBackOff',
      message: 'back-off 10s restarting failed container=app pod=p_ns(uid-1)',
    });
    expect(cs.lastState?.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
      startedAt: iso(T0 + 2000),
      finishedAt: iso(T0 + 5000),
    });
    expect(first.status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');

    const restarted = simulatePodStatus(p, ctx, opts, T0 + 15_000);
    const rs = restarted.status.containerStatuses![0]!;
    expect(rs.restartCount).toBe(1);
    expect(rs.state?.running?.startedAt).toBe(iso(T0 + 15_000));
    expect(rs.containerID).toBe(simulatedContainerID('uid-1', 'app', 1));
    expect(rs.lastState?.terminated?.finishedAt).toBe(iso(T0 + 5000));
    expect(restarted.nextAt).toBe(T0 + 18_000);

    const second = simulatePodStatus(p, ctx, opts, T0 + 18_000);
    expect(second.nextAt).toBe(T0 + 38_000);
    expect(second.status.containerStatuses![0]!.state?.waiting?.message).toMatch(/^back-off 20s /);
    // Far later the back-off is capped at 5 min.
    const late = simulatePodStatus(p, ctx, opts, T0 + 3_600_000);
    const ls = late.status.containerStatuses![0]!;
    if (ls.state?.waiting) expect(ls.state.waiting.message).toMatch(/^back-off 5m0s /);
    expect(ls.restartCount).toBeGreaterThan(5);
  });

  it('stops the containers of a deleted pod with exit code 0', () => {
    const running = at(pod('Always'), T0 + 2000).pod;
    const status = stoppedPodStatus(running, T0 + 9000);
    expect(status.phase).toBe('Succeeded');
    expect(status.containerStatuses![0]!.state).toEqual({
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        startedAt: iso(T0 + 2000),
        finishedAt: iso(T0 + 9000),
        containerID: simulatedContainerID('uid-1', 'app', 0),
      },
    });
  });
});
