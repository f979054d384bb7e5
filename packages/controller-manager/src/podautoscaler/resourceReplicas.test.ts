import { formatTime, type Pod } from '@orch/api';
import type { PodMetricsInfo } from './ResourceMetricsClient';
import { groupPods, resourceReplicas, type ReplicaCalculatorConfig } from './resourceReplicas';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const MINUTE = 60_000;
const config: ReplicaCalculatorConfig = {
  tolerance: 0.1,
  cpuInitializationPeriodMs: 2 * MINUTE,
  delayOfInitialReadinessStatusMs: 10_000,
};

interface PodSpec {
  request?: string;
  phase?: string;
  ready?: 'True' | 'False';
  /** ms before NOW the pod started; long ago by default */
  startedAgo?: number;
  /** ms before NOW its readiness last changed; at its start by default */
  transitionAgo?: number;
}

function pod(name: string, spec: PodSpec = {}): Pod {
  const startedAgo = spec.startedAgo ?? 10 * MINUTE;
  return {
    metadata: { name, namespace: 'ns' },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          resources: spec.request === '' ? {} : { requests: { cpu: spec.request ?? '1' } },
        },
      ],
    },
    status: {
      phase: spec.phase ?? 'Running',
      startTime: formatTime(NOW - startedAgo),
      conditions: [
        {
          type: 'Ready',
          status: spec.ready ?? 'True',
          lastTransitionTime: formatTime(NOW - (spec.transitionAgo ?? startedAgo)),
        },
      ],
    },
  } as Pod;
}

/** Samples of `value` milli-CPU taken a minute ago over 30 s windows. */
function metrics(values: Record<string, number>): PodMetricsInfo {
  return new Map(
    Object.entries(values).map(([name, value]) => [
      name,
      { value, timestampMs: NOW - MINUTE, windowMs: 30_000 },
    ]),
  );
}

function calc(pods: Pod[], values: Record<string, number>, target: number, currentReplicas = pods.length) {
  return resourceReplicas({
    currentReplicas,
    targetUtilization: target,
    resource: 'cpu',
    pods,
    metrics: metrics(values),
    config,
    now: NOW,
  });
}

interface Case {
  name: string;
  pods: Pod[];
  values: Record<string, number>;
  target: number;
  want: { replicas: number; utilization: number; rawUtilization: number };
}

describe('resourceReplicas (Kubernetes replica calculator rules)', () => {
  test.each<Case>([
    {
      name: 'scales up to the utilization of the requests over the target',
      pods: [pod('a'), pod('b'), pod('c')],
      values: { a: 300, b: 500, c: 700 },
      target: 30,
      want: { replicas: 5, utilization: 50, rawUtilization: 500 },
    },
    {
      name: 'scales down',
      pods: ['a', 'b', 'c', 'd', 'e'].map((n) => pod(n)),
      values: { a: 100, b: 300, c: 500, d: 250, e: 250 },
      target: 50,
      want: { replicas: 3, utilization: 28, rawUtilization: 280 },
    },
    {
      name: 'keeps the count within the tolerance',
      pods: [pod('a', { request: '900m' }), pod('b', { request: '1' }), pod('c', { request: '1100m' })],
      values: { a: 1010, b: 1030, c: 1020 },
      target: 100,
      want: { replicas: 3, utilization: 102, rawUtilization: 1020 },
    },
    {
      name: 'on a scale-up, counts unready pods as using nothing',
      pods: [pod('a', { ready: 'False', startedAgo: MINUTE }), pod('b'), pod('c')],
      values: { a: 300, b: 500, c: 700 },
      target: 30,
      want: { replicas: 4, utilization: 60, rawUtilization: 600 },
    },
    {
      name: 'on a scale-up, counts pending pods as using nothing',
      pods: [pod('a', { phase: 'Pending' }), pod('b'), pod('c')],
      values: { b: 500, c: 700 },
      target: 30,
      want: { replicas: 4, utilization: 60, rawUtilization: 600 },
    },
    {
      name: 'on a scale-down, leaves unready pods out',
      pods: [pod('a', { ready: 'False', startedAgo: MINUTE }), pod('b'), pod('c')],
      values: { a: 100, b: 100, c: 100 },
      target: 50,
      want: { replicas: 1, utilization: 10, rawUtilization: 100 },
    },
    {
      name: 'on a scale-up, counts pods missing a metric as using nothing',
      pods: [pod('a'), pod('b'), pod('c')],
      values: { a: 900, b: 900 },
      target: 50,
      want: { replicas: 4, utilization: 90, rawUtilization: 900 },
    },
    {
      name: 'on a scale-down, counts pods missing a metric as using their whole request',
      pods: ['a', 'b', 'c', 'd'].map((n) => pod(n)),
      values: { a: 10, b: 10 },
      target: 80,
      want: { replicas: 3, utilization: 1, rawUtilization: 10 },
    },
    {
      name: 'keeps the count when the pods missing a metric turn the direction around',
      pods: ['a', 'b', 'c', 'd'].map((n) => pod(n)),
      values: { a: 100, b: 200 },
      target: 50,
      want: { replicas: 4, utilization: 15, rawUtilization: 150 },
    },
    {
      name: 'keeps the count when the pods missing a metric bring it within the tolerance',
      pods: [pod('a'), pod('b'), pod('c')],
      values: { a: 800, b: 800 },
      target: 52,
      want: { replicas: 3, utilization: 80, rawUtilization: 800 },
    },
    {
      name: 'leaves deleted and failed pods out',
      pods: [
        pod('a'),
        pod('b'),
        pod('c', { phase: 'Failed' }),
        { ...pod('d'), metadata: { name: 'd', deletionTimestamp: formatTime(NOW) } } as Pod,
      ],
      values: { a: 400, b: 600 },
      target: 25,
      want: { replicas: 4, utilization: 50, rawUtilization: 500 },
    },
  ])('$name', ({ pods, values, target, want }) => {
    expect(calc(pods, values, target)).toEqual(want);
  });

  test.each<{ name: string; pods: Pod[]; values: Record<string, number>; error: string }>([
    {
      name: 'no pods',
      pods: [] as Pod[],
      values: {},
      error: 'no pods returned by selector while calculating replica count',
    },
    {
      name: 'a container without a request',
      pods: [pod('a', { request: '' })],
      values: { a: 100 },
      error: 'missing request for cpu',
    },
    {
      name: 'metrics of unready pods only',
      pods: [pod('a', { ready: 'False', startedAgo: MINUTE })],
      values: { a: 100 },
      error: 'did not receive metrics for any ready pods',
    },
    {
      name: 'metrics of other pods only',
      pods: [pod('a')],
      values: { other: 100 },
      error: 'no metrics returned matched known pods',
    },
  ])('fails with $name', ({ pods, values, error }) => {
    expect(() => calc(pods, values, 50, 1)).toThrow(error);
  });
});

describe('groupPods', () => {
  const group = (p: Pod, sampleAgo = MINUTE) =>
    groupPods(
      [p],
      new Map([[p.metadata!.name!, { value: 1, timestampMs: NOW - sampleAgo, windowMs: 30_000 }]]),
      'cpu',
      config,
      NOW,
    );

  test('within the CPU initialization period, a sample needs a full window after the readiness change', () => {
    const p = pod('a', { startedAgo: MINUTE, transitionAgo: 40_000 });
    expect(group(p, 30_000).ignored).toEqual(new Set(['a']));
    expect(group(p, 5_000).readyPodCount).toBe(1);
  });

  test('after it, an unready pod is left out only when it was never ready', () => {
    // unready since its start (within the initial readiness delay)
    expect(
      group(pod('a', { ready: 'False', startedAgo: 5 * MINUTE, transitionAgo: 5 * MINUTE - 5_000 })).ignored
        .size,
    ).toBe(1);
    // was ready, became unready later
    expect(
      group(pod('a', { ready: 'False', startedAgo: 5 * MINUTE, transitionAgo: MINUTE })).readyPodCount,
    ).toBe(1);
  });

  test('a pod without a start time or Ready condition is left out', () => {
    const p = pod('a');
    delete p.status!.startTime;
    expect(group(p).ignored.size).toBe(1);
  });

  test('pods without a metric are missing, other resources ignore readiness', () => {
    const p = pod('a', { ready: 'False', startedAgo: MINUTE });
    expect(groupPods([p], new Map(), 'cpu', config, NOW).missing).toEqual(new Set(['a']));
    const memory = groupPods(
      [p],
      new Map([['a', { value: 1, timestampMs: NOW, windowMs: 0 }]]),
      'memory',
      config,
      NOW,
    );
    expect(memory.readyPodCount).toBe(1);
  });
});
