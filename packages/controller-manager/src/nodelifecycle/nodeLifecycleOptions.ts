import { FlagError, type ControllerFlags } from '@orch/component-base';

/** The nodelifecycle controller's configuration, from its flags (doc 3's controller manager options). */
export interface NodeLifecycleOptions {
  /** --enable-taint-manager: NoExecute taints and taint-based eviction; false evicts after --pod-eviction-timeout. */
  enableTaintManager: boolean;
  /** --large-cluster-size-threshold: zones of more nodes keep evicting at the secondary rate when unhealthy. */
  largeClusterSizeThreshold: number;
  /** --node-eviction-rate, nodes per second of a healthy zone. */
  nodeEvictionRate: number;
  /** --secondary-node-eviction-rate, nodes per second of a partially disrupted zone. */
  secondaryNodeEvictionRate: number;
  /** --unhealthy-zone-threshold, the fraction of not-ready nodes (at least 3) that disrupts a zone. */
  unhealthyZoneThreshold: number;
  /** --node-monitor-grace-period, ms. */
  nodeMonitorGracePeriodMs: number;
  /** --node-monitor-period, ms. */
  nodeMonitorPeriodMs: number;
  /** --node-startup-grace-period, ms. */
  nodeStartupGracePeriodMs: number;
  /** --pod-eviction-timeout, ms. */
  podEvictionTimeoutMs: number;
}

/** The defaults of doc 3. */
export const DEFAULT_NODE_LIFECYCLE_OPTIONS: Readonly<NodeLifecycleOptions> = {
  enableTaintManager: true,
  largeClusterSizeThreshold: 50,
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  unhealthyZoneThreshold: 0.55,
  nodeMonitorGracePeriodMs: 40_000,
  nodeMonitorPeriodMs: 5_000,
  nodeStartupGracePeriodMs: 60_000,
  podEvictionTimeoutMs: 5 * 60_000,
};

/** Read access to the flags this controller reads. */
export type NodeLifecycleFlags = Pick<ControllerFlags, 'duration' | 'number' | 'bool'>;

/**
 * The options from the flags, each flag's default where it has no value; a value out of range is a
 * FlagError naming the flag.
 */
export function nodeLifecycleOptions(flags?: NodeLifecycleFlags): NodeLifecycleOptions {
  const d = DEFAULT_NODE_LIFECYCLE_OPTIONS;
  const errors: string[] = [];
  const num = (flag: string, fallback: number, check: (v: number) => string | undefined): number => {
    const v = flags?.number(flag);
    if (v === undefined) return fallback;
    const problem = Number.isFinite(v) ? check(v) : 'must be a number';
    if (problem) errors.push(`--${flag} ${problem} (got ${v})`);
    return v;
  };
  const dur = (flag: string, fallback: number): number => {
    const v = flags?.duration(flag);
    if (v === undefined) return fallback;
    if (!Number.isFinite(v) || v <= 0) errors.push(`--${flag} must be a positive duration (got ${v}ms)`);
    return v;
  };
  const notNegative = (v: number) => (v < 0 ? 'must not be negative' : undefined);
  const opts: NodeLifecycleOptions = {
    enableTaintManager: flags?.bool?.('enable-taint-manager') ?? d.enableTaintManager,
    largeClusterSizeThreshold: num(
      'large-cluster-size-threshold',
      d.largeClusterSizeThreshold,
      (v) => notNegative(v) ?? (Number.isInteger(v) ? undefined : 'must be a whole number'),
    ),
    nodeEvictionRate: num('node-eviction-rate', d.nodeEvictionRate, notNegative),
    secondaryNodeEvictionRate: num('secondary-node-eviction-rate', d.secondaryNodeEvictionRate, notNegative),
    unhealthyZoneThreshold: num('unhealthy-zone-threshold', d.unhealthyZoneThreshold, (v) =>
      v <= 0 || v > 1 ? 'must be in the range (0, 1]' : undefined,
    ),
    nodeMonitorGracePeriodMs: dur('node-monitor-grace-period', d.nodeMonitorGracePeriodMs),
    nodeMonitorPeriodMs: dur('node-monitor-period', d.nodeMonitorPeriodMs),
    nodeStartupGracePeriodMs: dur('node-startup-grace-period', d.nodeStartupGracePeriodMs),
    podEvictionTimeoutMs: dur('pod-eviction-timeout', d.podEvictionTimeoutMs),
  };
  if (errors.length > 0) throw new FlagError(`nodelifecycle: ${errors.join('; ')}`);
  return opts;
}
