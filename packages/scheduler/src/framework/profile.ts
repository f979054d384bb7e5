import { DEFAULT_FEATURE_GATES } from '@orch/component-base';

/** The extension points a profile configures plugins for. */
export const EXTENSION_POINTS = [
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
] as const;
export type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

export interface PluginRef {
  name: string;
  /** Score weight; 1 when omitted. */
  weight?: number;
}

/** Enabled and disabled plugins of one extension point; `*` in disabled disables every default. */
export interface PluginSet {
  enabled?: PluginRef[];
  disabled?: PluginRef[];
}

export type PluginsConfig = Partial<Record<ExtensionPoint, PluginSet>>;

/** One scheduling profile, as in KubeSchedulerConfiguration. */
export interface ProfileConfig {
  schedulerName: string;
  plugins?: PluginsConfig;
  pluginConfig?: { name: string; args?: unknown }[];
}

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** A feature gate's default (doc 3's table); gates it does not list are off. */
export function gateDefault(name: string): boolean {
  return DEFAULT_FEATURE_GATES[name]?.default ?? false;
}

/**
 * The default plugins of every extension point (Kubernetes' defaults, restricted to the built-in set);
 * PodTopologySpread only with the EvenPodsSpread feature gate on; with TaintNodesByCondition off, node
 * conditions and cordoning are checked by NodeCondition instead of NodeUnschedulable's taint;
 * SelectorSpread only while the DefaultPodTopologySpread gate is off (PodTopologySpread's default
 * constraints spread pods otherwise).
 */
export function defaultPlugins(
  featureEnabled: (name: string) => boolean = gateDefault,
): Record<ExtensionPoint, PluginRef[]> {
  const spread = featureEnabled('EvenPodsSpread');
  const topologySpread = (weight?: number): PluginRef[] =>
    spread
      ? [weight === undefined ? { name: 'PodTopologySpread' } : { name: 'PodTopologySpread', weight }]
      : [];
  const selectorSpread = (weight?: number): PluginRef[] =>
    featureEnabled('DefaultPodTopologySpread')
      ? []
      : [weight === undefined ? { name: 'SelectorSpread' } : { name: 'SelectorSpread', weight }];
  return {
    queueSort: [{ name: 'PrioritySort' }],
    preFilter: [
      { name: 'NodeResourcesFit' },
      { name: 'NodePorts' },
      { name: 'InterPodAffinity' },
      { name: 'NodeAffinity' },
      ...topologySpread(),
      // PreFilter only answers Skip for pods without the volumes they check (Kubernetes does so
      // from v1.26; in v1.19 their Filter found nothing to check on each node in turn)
      { name: 'VolumeRestrictions' },
      { name: 'EBSLimits' },
      { name: 'GCEPDLimits' },
      { name: 'NodeVolumeLimits' },
      { name: 'AzureDiskLimits' },
      { name: 'VolumeBinding' },
      { name: 'VolumeZone' },
    ],
    filter: [
      featureEnabled('TaintNodesByCondition') ? { name: 'NodeUnschedulable' } : { name: 'NodeCondition' },
      { name: 'NodeResourcesFit' },
      { name: 'NodeName' },
      { name: 'NodePorts' },
      { name: 'NodeAffinity' },
      { name: 'VolumeRestrictions' },
      { name: 'TaintToleration' },
      { name: 'EBSLimits' },
      { name: 'GCEPDLimits' },
      { name: 'NodeVolumeLimits' },
      { name: 'AzureDiskLimits' },
      { name: 'VolumeBinding' },
      { name: 'VolumeZone' },
      { name: 'InterPodAffinity' },
      ...topologySpread(),
    ],
    postFilter: [{ name: 'DefaultPreemption' }],
    preScore: [
      { name: 'InterPodAffinity' },
      ...topologySpread(),
      { name: 'TaintToleration' },
      ...selectorSpread(),
    ],
    score: [
      { name: 'NodeResourcesBalancedAllocation', weight: 1 },
      { name: 'ImageLocality', weight: 1 },
      { name: 'InterPodAffinity', weight: 1 },
      { name: 'NodeResourcesLeastAllocated', weight: 1 },
      { name: 'NodeAffinity', weight: 1 },
      { name: 'NodePreferAvoidPods', weight: 10000 },
      { name: 'TaintToleration', weight: 1 },
      ...topologySpread(2),
      ...selectorSpread(1),
    ],
    reserve: [{ name: 'VolumeBinding' }],
    permit: [],
    preBind: [{ name: 'VolumeBinding' }],
    bind: [{ name: 'DefaultBinder' }],
    postBind: [],
  };
}

/** Applies a profile's enable/disable lists to the defaults of one extension point. */
export function mergePluginSet(defaults: readonly PluginRef[], custom: PluginSet | undefined): PluginRef[] {
  if (!custom) return defaults.map((p) => ({ ...p }));
  const disabled = new Set((custom.disabled ?? []).map((p) => p.name));
  const result = disabled.has('*')
    ? []
    : defaults.filter((p) => !disabled.has(p.name)).map((p) => ({ ...p }));
  for (const p of custom.enabled ?? []) {
    const existing = result.find((r) => r.name === p.name);
    if (existing) {
      if (p.weight !== undefined) existing.weight = p.weight;
    } else result.push({ ...p });
  }
  return result;
}
