import { FlagError } from '@orch/component-base';
import { DEFAULT_NODE_LIFECYCLE_OPTIONS, nodeLifecycleOptions } from './nodeLifecycleOptions';

const flags = (values: Record<string, number | boolean>) => ({
  duration: (f: string) => values[f] as number | undefined,
  number: (f: string) => values[f] as number | undefined,
  bool: (f: string) => values[f] as boolean | undefined,
});

describe('nodeLifecycleOptions', () => {
  test('the defaults of doc 3 when no flag has a value', () => {
    expect(nodeLifecycleOptions()).toEqual(DEFAULT_NODE_LIFECYCLE_OPTIONS);
    expect(nodeLifecycleOptions(flags({}))).toEqual({
      enableTaintManager: true,
      largeClusterSizeThreshold: 50,
      nodeEvictionRate: 0.1,
      secondaryNodeEvictionRate: 0.01,
      unhealthyZoneThreshold: 0.55,
      nodeMonitorGracePeriodMs: 40_000,
      nodeMonitorPeriodMs: 5_000,
      nodeStartupGracePeriodMs: 60_000,
      podEvictionTimeoutMs: 300_000,
    });
  });

  test('reads every flag', () => {
    expect(
      nodeLifecycleOptions(
        flags({
          'enable-taint-manager': false,
          'large-cluster-size-threshold': 3,
          'node-eviction-rate': 2,
          'secondary-node-eviction-rate': 0.5,
          'unhealthy-zone-threshold': 0.4,
          'node-monitor-grace-period': 4_000,
          'node-monitor-period': 100,
          'node-startup-grace-period': 8_000,
          'pod-eviction-timeout': 1_000,
        }),
      ),
    ).toEqual({
      enableTaintManager: false,
      largeClusterSizeThreshold: 3,
      nodeEvictionRate: 2,
      secondaryNodeEvictionRate: 0.5,
      unhealthyZoneThreshold: 0.4,
      nodeMonitorGracePeriodMs: 4_000,
      nodeMonitorPeriodMs: 100,
      nodeStartupGracePeriodMs: 8_000,
      podEvictionTimeoutMs: 1_000,
    });
  });

  test.each([
    ['node-eviction-rate', -1, '--node-eviction-rate must not be negative (got -1)'],
    ['secondary-node-eviction-rate', -0.5, '--secondary-node-eviction-rate must not be negative (got -0.5)'],
    ['unhealthy-zone-threshold', 0, '--unhealthy-zone-threshold must be in the range (0, 1] (got 0)'],
    ['unhealthy-zone-threshold', 1.5, '--unhealthy-zone-threshold must be in the range (0, 1] (got 1.5)'],
    ['large-cluster-size-threshold', -3, '--large-cluster-size-threshold must not be negative (got -3)'],
    ['node-monitor-period', 0, '--node-monitor-period must be a positive duration (got 0ms)'],
    ['node-monitor-grace-period', -5, '--node-monitor-grace-period must be a positive duration (got -5ms)'],
    ['node-startup-grace-period', 0, '--node-startup-grace-period must be a positive duration (got 0ms)'],
    ['pod-eviction-timeout', 0, '--pod-eviction-timeout must be a positive duration (got 0ms)'],
  ])('--%s=%s is a FlagError naming the flag', (flag, value, message) => {
    expect(() => nodeLifecycleOptions(flags({ [flag]: value }))).toThrow(FlagError);
    expect(() => nodeLifecycleOptions(flags({ [flag]: value }))).toThrow(message);
  });

  test('every problem is reported at once', () => {
    expect(() => nodeLifecycleOptions(flags({ 'node-eviction-rate': -1, 'node-monitor-period': 0 }))).toThrow(
      'nodelifecycle: --node-eviction-rate must not be negative (got -1); --node-monitor-period must be a positive duration (got 0ms)',
    );
  });
});
