import type { PodStats } from '@orch/api';
import { cpuQuantity, memoryQuantity, METRICS_WINDOW, nodeMetricsOf, podMetricsOf } from './summary-metrics';

const T1 = '2026-01-02T03:04:05Z';
const T2 = '2026-01-02T03:04:07Z';
const NOW = '2026-01-02T03:05:00Z';
const V = 'metrics.k8s.io/v1beta1';

describe('quantities as metrics-server writes them', () => {
  it('writes CPU in nanocores, canonical when whole millicores or cores', () => {
    expect(cpuQuantity(123456)).toBe('123456n');
    expect(cpuQuantity(250_000_000)).toBe('250m');
    expect(cpuQuantity(2_000_000_000)).toBe('2');
    expect(cpuQuantity(0)).toBe('0');
    expect(cpuQuantity(-5)).toBe('0');
  });

  it('writes memory in the binary format: Ki, Mi when whole, else bytes', () => {
    expect(memoryQuantity(5 * 1024)).toBe('5Ki');
    expect(memoryQuantity(3 * 1024 * 1024)).toBe('3Mi');
    expect(memoryQuantity(1234567)).toBe('1234567');
  });
});

describe('nodeMetricsOf', () => {
  it('reports the node’s usageNanoCores and workingSetBytes at the CPU sample’s time', () => {
    const m = nodeMetricsOf(
      {
        nodeName: 'n1',
        startTime: T1,
        cpu: { time: T2, usageNanoCores: 1_500_000_000, usageCoreNanoSeconds: 99 },
        memory: { time: T2, workingSetBytes: 2048, availableBytes: 1 },
      },
      { name: 'n1', labels: { zone: 'a' } },
      V,
      NOW,
    );
    expect(m).toEqual({
      apiVersion: V,
      kind: 'NodeMetrics',
      metadata: { name: 'n1', creationTimestamp: NOW, labels: { zone: 'a' } },
      timestamp: T2,
      window: METRICS_WINDOW,
      usage: { cpu: '1500m', memory: '2Ki' },
    });
  });

  it('has no metrics for a node without CPU or memory', () => {
    expect(
      nodeMetricsOf(
        { nodeName: 'n1', startTime: T1, memory: { time: T1, workingSetBytes: 1 } },
        { name: 'n1' },
        V,
        NOW,
      ),
    ).toBeUndefined();
    expect(
      nodeMetricsOf(
        { nodeName: 'n1', startTime: T1, cpu: { time: T1, usageNanoCores: 1 } },
        { name: 'n1' },
        V,
        NOW,
      ),
    ).toBeUndefined();
  });
});

describe('podMetricsOf', () => {
  const pod = (containers: PodStats['containers']): PodStats => ({
    podRef: { name: 'web', namespace: 'ns', uid: 'u1' },
    containers,
  });

  it('has one entry per container, stamped with the earliest container sample', () => {
    const m = podMetricsOf(
      pod([
        {
          name: 'a',
          startTime: T1,
          cpu: { time: T2, usageNanoCores: 10_000_000 },
          memory: { time: T2, workingSetBytes: 1024 * 1024 },
        },
        {
          name: 'b',
          startTime: T1,
          cpu: { time: T1, usageNanoCores: 7 },
          memory: { time: T1, workingSetBytes: 100 },
        },
      ]),
      { name: 'web', namespace: 'ns', labels: { app: 'web' } },
      V,
      NOW,
    );
    expect(m).toEqual({
      apiVersion: V,
      kind: 'PodMetrics',
      metadata: { name: 'web', namespace: 'ns', creationTimestamp: NOW, labels: { app: 'web' } },
      timestamp: T1,
      window: METRICS_WINDOW,
      containers: [
        { name: 'a', usage: { cpu: '10m', memory: '1Mi' } },
        { name: 'b', usage: { cpu: '7n', memory: '100' } },
      ],
    });
  });

  it('drops a pod one of whose containers lacks a value, and a pod without containers', () => {
    const full = {
      name: 'a',
      startTime: T1,
      cpu: { time: T1, usageNanoCores: 1 },
      memory: { time: T1, workingSetBytes: 1 },
    };
    expect(
      podMetricsOf(pod([full, { name: 'b', startTime: T1, cpu: { time: T1 } }]), { name: 'web' }, V, NOW),
    ).toBeUndefined();
    expect(podMetricsOf(pod([]), { name: 'web' }, V, NOW)).toBeUndefined();
    expect(podMetricsOf(pod([full]), { name: 'web' }, V, NOW)?.metadata?.namespace).toBe('ns');
  });
});
