import { DEFAULT_FEATURE_GATES, newFeatureGates } from './defaultFeatureGates';
import { FeatureGate, type FeatureSpec } from './featureGate';

// Doc 3's table, with the generically named rows spelled out as Kubernetes names them.
const TABLE: [string, 'A' | 'B', boolean][] = [
  ['APIListChunking', 'B', true],
  ['APIResponseCompression', 'B', true],
  ['AllAlpha', 'A', false],
  ['AppArmor', 'B', true],
  ['AttachVolumeLimit', 'B', true],
  ['BalanceAttachedNodeVolumes', 'A', false],
  ['BlockVolume', 'B', true],
  ['BoundServiceAccountTokenVolume', 'A', false],
  ['CPUManager', 'B', true],
  ['CRIContainerLogRotation', 'B', true],
  ['CSIBlockVolume', 'B', true],
  ['CSIDriverRegistry', 'B', true],
  ['CSIInlineVolume', 'B', true],
  ['CSIMigration', 'A', false],
  ['CSIMigrationAWS', 'A', false],
  ['CSIMigrationAzureDisk', 'A', false],
  ['CSIMigrationAzureFile', 'A', false],
  ['CSIMigrationGCE', 'A', false],
  ['CSIMigrationOpenStack', 'A', false],
  ['CSINodeInfo', 'B', true],
  ['CustomCPUCFSQuotaPeriod', 'A', false],
  ['CustomResourceDefaulting', 'B', true],
  ['DevicePlugins', 'B', true],
  ['DryRun', 'B', true],
  ['DynamicAuditing', 'A', false],
  ['DynamicNodeAgentConfig', 'B', true],
  ['EndpointSlice', 'A', false],
  ['EphemeralContainers', 'A', false],
  ['EvenPodsSpread', 'A', false],
  ['ExpandCSIVolumes', 'B', true],
  ['ExpandInUsePersistentVolumes', 'B', true],
  ['ExpandPersistentVolumes', 'B', true],
  ['ExperimentalHostUserNamespaceDefaulting', 'B', false],
  ['HPAScaleToZero', 'A', false],
  ['IPv6DualStack', 'A', false],
  ['NodeAgentPodResources', 'B', true],
  ['LegacyNodeRoleBehavior', 'A', true],
  ['LocalStorageCapacityIsolation', 'B', true],
  ['LocalStorageCapacityIsolationFSQuotaMonitoring', 'A', false],
  ['MountContainers', 'A', false],
  ['NodeDisruptionExclusion', 'A', false],
  ['NodeLease', 'B', true],
  ['NonPreemptingPriority', 'A', false],
  ['PodOverhead', 'A', false],
  ['PodShareProcessNamespace', 'B', true],
  ['ProcMountType', 'A', false],
  ['QOSReserved', 'A', false],
  ['RemainingItemCount', 'B', true],
  ['RemoveSelfLink', 'A', false],
  ['RequestManagement', 'A', false],
  ['ResourceLimitsPriorityFunction', 'A', false],
  ['ResourceQuotaScopeSelectors', 'B', true],
  ['RotateNodeAgentClientCertificate', 'B', true],
  ['RotateNodeAgentServerCertificate', 'B', true],
  ['RunAsGroup', 'B', true],
  ['RuntimeClass', 'B', true],
  ['SCTPSupport', 'A', false],
  ['ScheduleDaemonSetPods', 'B', true],
  ['ServerSideApply', 'B', true],
  ['ServiceLoadBalancerFinalizer', 'B', true],
  ['ServiceNodeExclusion', 'A', false],
  ['StartupProbe', 'A', false],
  ['StorageVersionHash', 'B', true],
  ['StreamingProxyRedirects', 'B', true],
  ['SupportNodePidsLimit', 'B', true],
  ['SupportPodPidsLimit', 'B', true],
  ['Sysctls', 'B', true],
  ['TTLAfterFinished', 'A', false],
  ['TaintBasedEvictions', 'B', true],
  ['TaintNodesByCondition', 'B', true],
  ['TokenRequest', 'B', true],
  ['TokenRequestProjection', 'B', true],
  ['TopologyManager', 'A', false],
  ['ValidateProxyRedirects', 'B', true],
  ['VolumePVCDataSource', 'B', true],
  ['VolumeSnapshotDataSource', 'A', false],
  ['VolumeSubpathEnvExpansion', 'B', true],
  ['WatchBookmark', 'B', true],
  ['HyperVContainer', 'A', false],
  ['WinDSR', 'A', false],
  ['WinOverlay', 'A', false],
  ['WindowsRunAsUserName', 'A', false],
  ['WindowsGMSA', 'B', true],
];

describe('default feature gates (doc 3)', () => {
  it('holds exactly the table', () => {
    expect(Object.keys(DEFAULT_FEATURE_GATES).sort()).toEqual(TABLE.map((r) => r[0]).sort());
  });

  it.each(TABLE)('%s is %s with default %s', (name, stage, def) => {
    const spec = DEFAULT_FEATURE_GATES[name];
    expect(spec.preRelease).toBe(stage === 'A' ? 'Alpha' : 'Beta');
    expect(spec.default).toBe(def);
    expect(new FeatureGate(DEFAULT_FEATURE_GATES).enabled(name)).toBe(def);
  });
});

describe('FeatureGate', () => {
  const known: Record<string, FeatureSpec> = {
    AllAlpha: { default: false, preRelease: 'Alpha' },
    A1: { default: false, preRelease: 'Alpha' },
    A2: { default: false, preRelease: 'Alpha' },
    B1: { default: false, preRelease: 'Beta' },
    Locked: { default: true, preRelease: 'GA', lockToDefault: true },
  };

  it('sets gates from --feature-gates values', () => {
    const gate = new FeatureGate(known);
    expect(gate.set({ A1: true, B1: true })).toEqual([]);
    expect(gate.enabled('A1')).toBe(true);
    expect(gate.enabled('B1')).toBe(true);
    expect(gate.enabled('A2')).toBe(false);
  });

  it('AllAlpha=true turns on every alpha gate not set explicitly', () => {
    const gate = new FeatureGate(known);
    gate.set({ A2: false, AllAlpha: true });
    expect(gate.enabled('A1')).toBe(true);
    expect(gate.enabled('A2')).toBe(false);
    expect(gate.enabled('B1')).toBe(false);
    expect(gate.enabled('AllAlpha')).toBe(true);
  });

  it('AllAlpha on the real table enables alpha gates only', () => {
    const gate = new FeatureGate(DEFAULT_FEATURE_GATES);
    gate.set({ AllAlpha: true });
    expect(gate.enabled('EndpointSlice')).toBe(true);
    expect(gate.enabled('CSIMigrationGCE')).toBe(true);
    expect(gate.enabled('ExperimentalHostUserNamespaceDefaulting')).toBe(false);
  });

  it('rejects unknown gates and changes to locked gates', () => {
    const gate = new FeatureGate(known);
    expect(gate.set({ Nope: true, Locked: false, Locked2: true, A1: true })).toEqual([
      'unrecognized feature gate: Nope',
      'cannot set feature gate Locked to false, feature is locked to true',
      'unrecognized feature gate: Locked2',
    ]);
    expect(gate.enabled('A1')).toBe(true);
    expect(gate.set({ Locked: true })).toEqual([]);
    expect(() => gate.enabled('Nope')).toThrow('feature "Nope" is not registered');
  });

  it('describes non-GA gates for help', () => {
    expect(new FeatureGate(known).knownFeatures()).toEqual([
      'A1=true|false (ALPHA - default=false)',
      'A2=true|false (ALPHA - default=false)',
      'AllAlpha=true|false (ALPHA - default=false)',
      'B1=true|false (BETA - default=false)',
    ]);
  });
});

describe('newFeatureGates', () => {
  it('sets values over the defaults and refuses unknown names', () => {
    const gates = newFeatureGates({ TTLAfterFinished: true, TaintBasedEvictions: false });
    expect(gates.enabled('TTLAfterFinished')).toBe(true);
    expect(gates.enabled('TaintBasedEvictions')).toBe(false);
    expect(gates.enabled('ServiceNodeExclusion')).toBe(false);
    expect(newFeatureGates().enabled('TaintNodesByCondition')).toBe(true);
    expect(() => newFeatureGates({ Nope: true })).toThrow('unrecognized feature gate: Nope');
  });
});
