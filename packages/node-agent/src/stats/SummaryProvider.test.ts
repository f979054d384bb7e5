import { FakeClock } from '../scheduling/Clock';
import type { PodUsage } from '../runtime/PodRunner';
import { CPU_RATE_WINDOW_MS, CpuRates, SummaryProvider } from './SummaryProvider';

describe('CpuRates', () => {
  it('averages since the container started until there is an earlier sample', () => {
    const rates = new CpuRates();
    // 2 core-seconds in 4 s: half a core
    expect(rates.rate('c', 4_000, 2e9, 0)).toBe(5e8);
  });

  it('averages since the oldest sample of the window, at least the minimum span old', () => {
    const rates = new CpuRates();
    rates.rate('c', 10_000, 1e9, 0);
    // 0.5 s later: too close to the sample, so still since the start
    expect(rates.rate('c', 10_500, 1.5e9, 0)).toBeCloseTo((1.5e9 * 1000) / 10_500);
    // 2 s after the first sample: since it, a full core
    expect(rates.rate('c', 12_000, 3e9, 0)).toBe(1e9);
    // long after: since the latest sample older than the window
    expect(rates.rate('c', 12_000 + CPU_RATE_WINDOW_MS + 5_000, 3e9, 0)).toBe(0);
  });

  it('never reports a negative rate and forgets containers no longer seen', () => {
    const rates = new CpuRates();
    rates.rate('n/a', 0, 5e9, 0);
    expect(rates.rate('n/a', 2_000, 1e9, 0)).toBe(0);
    rates.retain(new Set(), 'n/');
    expect(rates.rate('n/a', 4_000, 4e9, 0)).toBe(1e9);
  });
});

describe('SummaryProvider', () => {
  const usage: PodUsage[] = [
    {
      namespace: 'ns',
      name: 'web',
      uid: 'u1',
      startTime: '1970-01-01T00:00:00Z',
      containers: [
        { name: 'a', startedAt: 0, cpuCoreNanoSeconds: 5e9, workingSetBytes: 1000 },
        { name: 'b', startedAt: 0, cpuCoreNanoSeconds: 1e9, workingSetBytes: 24 },
      ],
    },
  ];

  it('summarizes containers, pods and the node (the sum of its pods)', async () => {
    const clock = new FakeClock(0);
    const provider = new SummaryProvider({
      nodes: [{ name: 'n1', capacity: { cpu: '4', memory: '1Mi' } }],
      usage: async (name) => (name === 'n1' ? usage : []),
      clock,
    });
    clock.advance(10_000);
    const s = (await provider.summary('n1'))!;
    const time = '1970-01-01T00:00:10Z';
    expect(s.pods).toEqual([
      {
        podRef: { name: 'web', namespace: 'ns', uid: 'u1' },
        startTime: '1970-01-01T00:00:00Z',
        containers: [
          {
            name: 'a',
            startTime: '1970-01-01T00:00:00Z',
            cpu: { time, usageNanoCores: 5e8, usageCoreNanoSeconds: 5e9 },
            memory: { time, workingSetBytes: 1000, usageBytes: 1000 },
          },
          {
            name: 'b',
            startTime: '1970-01-01T00:00:00Z',
            cpu: { time, usageNanoCores: 1e8, usageCoreNanoSeconds: 1e9 },
            memory: { time, workingSetBytes: 24, usageBytes: 24 },
          },
        ],
        cpu: { time, usageNanoCores: 6e8, usageCoreNanoSeconds: 6e9 },
        memory: { time, workingSetBytes: 1024, usageBytes: 1024 },
      },
    ]);
    expect(s.node).toEqual({
      nodeName: 'n1',
      startTime: '1970-01-01T00:00:00Z',
      cpu: { time, usageNanoCores: 6e8, usageCoreNanoSeconds: 6e9 },
      memory: { time, workingSetBytes: 1024, usageBytes: 1024, availableBytes: 1024 * 1024 - 1024 },
    });
    expect(provider.nodeNames).toEqual(['n1']);
    expect(await provider.summary('other')).toBeUndefined();
  });
});
