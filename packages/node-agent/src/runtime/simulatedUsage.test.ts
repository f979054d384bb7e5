import type { Pod } from '@orch/api';
import { simulatedPodUsage } from './simulatedUsage';

const pod = (running: boolean): Pod =>
  ({
    metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
    spec: {
      containers: [
        { name: 'a', image: 'x', resources: { requests: { cpu: '200m', memory: '64Mi' } } },
        { name: 'b', image: 'x' },
      ],
    },
    status: {
      startTime: '1970-01-01T00:00:00Z',
      containerStatuses: [
        {
          name: 'a',
          image: 'x',
          imageID: '',
          ready: running,
          restartCount: 0,
          state: running ? { running: { startedAt: '1970-01-01T00:00:10Z' } } : { waiting: {} },
        },
        {
          name: 'b',
          image: 'x',
          imageID: '',
          ready: running,
          restartCount: 0,
          state: running ? { running: { startedAt: '1970-01-01T00:00:10Z' } } : { waiting: {} },
        },
      ],
    },
  }) as Pod;

describe('simulatedPodUsage', () => {
  it('uses half of the requests (1m CPU and 1Mi memory when not requested), CPU accruing since the start', () => {
    expect(simulatedPodUsage(pod(true), 20_000)).toEqual({
      namespace: 'ns',
      name: 'web',
      uid: 'u1',
      startTime: '1970-01-01T00:00:00Z',
      containers: [
        // 100m for 10 s: a core-second
        { name: 'a', startedAt: 10_000, cpuCoreNanoSeconds: 1e9, workingSetBytes: 32 * 1024 * 1024 },
        { name: 'b', startedAt: 10_000, cpuCoreNanoSeconds: 1e7, workingSetBytes: 1024 * 1024 },
      ],
    });
  });

  it('has no usage for a pod without running containers', () => {
    expect(simulatedPodUsage(pod(false), 20_000)).toBeUndefined();
  });
});
