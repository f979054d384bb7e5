import { controllerManagerFlagSets, daemonFlagSets, schedulerFlagSets } from './daemonFlagSets';
import type { FlagType } from './flagTypes';
import { parseFlags } from './parseFlags';
import type { DaemonKind } from './daemonKind';

/** Printed default per daemon: [scheduler, controller manager, cloud controller manager]; null = not a flag of it. */
type Row = [flag: string, type: FlagType, scheduler: string | null, cm: string | null, ccm: string | null];
const all = (value: string): [string, string, string] => [value, value, value];
const cms = (value: string): [null, string, string] => [null, value, value];
const cmOnly = (value: string): [null, string, null] => [null, value, null];

// Transcribed from doc 3's tables, printed the way each flag prints its value.
const ROWS: Row[] = [
  // Authentication
  ['authentication-kubeconfig', 'string', ...all('')],
  ['authentication-skip-lookup', 'bool', ...all('false')],
  ['authentication-token-webhook-cache-ttl', 'duration', ...all('10s')],
  ['authentication-tolerate-lookup-failure', 'bool', 'true', 'false', 'false'],
  ['authorization-kubeconfig', 'string', ...all('')],
  ['authorization-always-allow-paths', 'stringList', ...all('[/healthz]')],
  ['authorization-webhook-cache-authorized-ttl', 'duration', ...all('10s')],
  ['authorization-webhook-cache-unauthorized-ttl', 'duration', ...all('10s')],
  ['client-ca-file', 'string', ...all('')],
  ['requestheader-client-ca-file', 'string', ...all('')],
  ['requestheader-allowed-names', 'stringList', ...all('[]')],
  ['requestheader-username-headers', 'stringList', ...all('[x-remote-user]')],
  ['requestheader-group-headers', 'stringList', ...all('[x-remote-group]')],
  ['requestheader-extra-headers-prefix', 'stringList', ...all('[x-remote-extra-]')],
  ['tls-cert-file', 'string', ...all('')],
  ['tls-private-key-file', 'string', ...all('')],
  ['cert-dir', 'string', ...all('')],
  ['tls-sni-cert-key', 'namedCertKey', ...all('[]')],
  ['tls-min-version', 'string', ...all('')],
  ['tls-cipher-suites', 'stringList', ...all('[]')],
  ['use-service-account-credentials', 'bool', ...cms('false')],
  ['service-account-private-key-file', 'string', ...cmOnly('')],
  ['root-ca-file', 'string', ...cmOnly('')],
  ['cluster-signing-cert-file', 'string', ...cmOnly('/etc/orch/ca/ca.pem')],
  ['cluster-signing-key-file', 'string', ...cmOnly('/etc/orch/ca/ca.key')],
  ['experimental-cluster-signing-duration', 'duration', ...cmOnly('8760h0m0s')],
  // Ports and addresses
  ['secure-port', 'int', '10259', '10257', '10258'],
  ['bind-address', 'ip', ...all('0.0.0.0')],
  ['port', 'int', '10251', null, null],
  ['address', 'string', '0.0.0.0', null, null],
  ['http2-max-streams-per-connection', 'int', ...all('0')],
  // Client connection
  ['orch-api-burst', 'int32', '100', '30', '30'],
  ['orch-api-qps', 'float32', '50', '20', '20'],
  ['orch-api-content-type', 'string', ...all('application/vnd.orch.protobuf')],
  ['kubeconfig', 'string', ...all('')],
  ['master', 'string', ...all('')],
  // Leader election
  ['leader-elect', 'bool', ...all('true')],
  ['leader-elect-lease-duration', 'duration', ...all('15s')],
  ['leader-elect-renew-deadline', 'duration', ...all('10s')],
  ['leader-elect-retry-period', 'duration', ...all('2s')],
  ['leader-elect-resource-lock', 'string', ...all('endpoints')],
  [
    'leader-elect-resource-name',
    'string',
    'orch-scheduler',
    'orch-controller-manager',
    'cloud-controller-manager',
  ],
  ['leader-elect-resource-namespace', 'string', ...all('orch-system')],
  ['lock-object-name', 'string', 'orch-scheduler', null, null],
  ['lock-object-namespace', 'string', 'orch-system', null, null],
  // Logging and profiling
  ['add-dir-header', 'bool', ...all('false')],
  ['alsologtostderr', 'bool', ...all('false')],
  ['logtostderr', 'bool', ...all('true')],
  ['log-backtrace-at', 'traceLocation', ...all(':0')],
  ['log-dir', 'string', ...all('')],
  ['log-file', 'string', ...all('')],
  ['log-file-max-size', 'uint', ...all('1800')],
  ['log-flush-frequency', 'duration', ...all('5s')],
  ['skip-headers', 'bool', ...all('false')],
  ['skip-log-headers', 'bool', ...all('false')],
  ['stderrthreshold', 'severity', ...all('2')],
  ['v', 'level', ...all('0')],
  ['vmodule', 'moduleSpec', ...all('')],
  ['profiling', 'bool', ...all('false')],
  ['contention-profiling', 'bool', ...all('false')],
  ['version', 'version', ...all('false')],
  ['help', 'bool', ...all('false')],
  ['cloudx-container-registry-config', 'string', ...all('')],
  ['feature-gates', 'mapStringBool', ...all('')],
  // Scheduler only
  ['config', 'string', '', null, null],
  ['write-config-to', 'string', '', null, null],
  ['scheduler-name', 'string', 'default-scheduler', null, null],
  ['algorithm-provider', 'string', '', null, null],
  ['hard-pod-affinity-symmetric-weight', 'int32', '1', null, null],
  ['policy-config-file', 'string', '', null, null],
  ['policy-configmap', 'string', '', null, null],
  ['policy-configmap-namespace', 'string', 'orch-system', null, null],
  ['use-legacy-policy-config', 'bool', 'false', null, null],
  // Controller manager (shared rows with the cloud controller manager marked cms)
  ['allocate-node-cidrs', 'bool', ...cms('false')],
  ['cidr-allocator-type', 'string', ...cms('RangeAllocator')],
  ['cluster-cidr', 'string', ...cms('')],
  ['service-cluster-ip-range', 'string', ...cmOnly('')],
  ['node-cidr-mask-size', 'int32', ...cmOnly('24')],
  ['configure-cloud-routes', 'bool', ...cms('true')],
  ['cloud-provider', 'string', ...cms('')],
  ['cloud-config', 'string', ...cms('')],
  ['external-cloud-volume-plugin', 'string', ...cms('')],
  ['cluster-name', 'string', ...cms('orch')],
  ['controllers', 'stringList', ...cms('[*]')],
  ['controller-start-interval', 'duration', ...cms('0s')],
  ['concurrent-deployment-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-endpoint-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-gc-syncs', 'int32', ...cmOnly('20')],
  ['concurrent-namespace-syncs', 'int32', ...cmOnly('10')],
  ['concurrent-replicaset-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-resource-quota-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-service-endpoint-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-service-syncs', 'int32', ...cms('1')],
  ['concurrent-serviceaccount-token-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-statefulset-syncs', 'int32', ...cmOnly('5')],
  ['concurrent-ttl-after-finished-syncs', 'int32', ...cmOnly('5')],
  ['concurrent_rc_syncs', 'int32', ...cmOnly('5')],
  ['deployment-controller-sync-period', 'duration', ...cmOnly('30s')],
  ['attach-detach-reconcile-sync-period', 'duration', ...cmOnly('1m0s')],
  ['disable-attach-detach-reconcile-sync', 'bool', ...cmOnly('false')],
  ['enable-dynamic-provisioning', 'bool', ...cmOnly('true')],
  ['enable-garbage-collector', 'bool', ...cmOnly('true')],
  ['enable-hostpath-provisioner', 'bool', ...cmOnly('false')],
  ['enable-taint-manager', 'bool', ...cmOnly('true')],
  ['endpoint-updates-batch-period', 'duration', ...cmOnly('0s')],
  ['max-endpoints-per-slice', 'int32', ...cmOnly('100')],
  ['flex-volume-plugin-dir', 'string', ...cmOnly('/usr/libexec/orch/node-agent-plugins/volume/exec/')],
  ['horizontal-pod-autoscaler-cpu-initialization-period', 'duration', ...cmOnly('5m0s')],
  ['horizontal-pod-autoscaler-downscale-stabilization', 'duration', ...cmOnly('5m0s')],
  ['horizontal-pod-autoscaler-initial-readiness-delay', 'duration', ...cmOnly('30s')],
  ['horizontal-pod-autoscaler-sync-period', 'duration', ...cmOnly('15s')],
  ['horizontal-pod-autoscaler-tolerance', 'float', ...cmOnly('0.1')],
  ['large-cluster-size-threshold', 'int32', ...cmOnly('50')],
  ['min-resync-period', 'duration', ...cms('12h0m0s')],
  ['namespace-sync-period', 'duration', ...cmOnly('5m0s')],
  ['node-eviction-rate', 'float32', ...cmOnly('0.1')],
  ['secondary-node-eviction-rate', 'float32', ...cmOnly('0.01')],
  ['unhealthy-zone-threshold', 'float32', ...cmOnly('0.55')],
  ['node-monitor-grace-period', 'duration', ...cmOnly('40s')],
  ['node-monitor-period', 'duration', ...cms('5s')],
  ['node-startup-grace-period', 'duration', ...cmOnly('1m0s')],
  ['pod-eviction-timeout', 'duration', ...cmOnly('5m0s')],
  ['pv-recycler-increment-timeout-nfs', 'int32', ...cmOnly('30')],
  ['pv-recycler-minimum-timeout-nfs', 'int32', ...cmOnly('300')],
  ['pv-recycler-minimum-timeout-hostpath', 'int32', ...cmOnly('60')],
  ['pv-recycler-timeout-increment-hostpath', 'int32', ...cmOnly('30')],
  ['pv-recycler-pod-template-filepath-nfs', 'string', ...cmOnly('')],
  ['pv-recycler-pod-template-filepath-hostpath', 'string', ...cmOnly('')],
  ['pvclaimbinder-sync-period', 'duration', ...cmOnly('15s')],
  ['resource-quota-sync-period', 'duration', ...cmOnly('5m0s')],
  ['route-reconciliation-period', 'duration', ...cms('10s')],
  ['terminated-pod-gc-threshold', 'int32', ...cmOnly('12500')],
  // Cloud controller manager only
  [
    'cloud-provider-x-lb-src-cidrs',
    'cidrList',
    null,
    null,
    '130.211.0.0/22,209.85.152.0/22,209.85.204.0/22,35.191.0.0/16',
  ],
  ['node-status-update-frequency', 'duration', null, null, '5m0s'],
];

const DAEMONS: [DaemonKind, number][] = [
  ['scheduler', 2],
  ['controller-manager', 3],
  ['cloud-controller-manager', 4],
];

describe.each(DAEMONS)('%s flag defaults (doc 3)', (daemon, column) => {
  const flags = parseFlags([], daemonFlagSets(daemon)).flags;
  const expected = ROWS.filter((row) => row[column] !== null);

  it.each(expected.map((row) => [row[0], row[1], row[column] as string]))(
    '--%s is %s defaulting to "%s"',
    (name, type, value) => {
      expect(flags.spec(name)?.type).toBe(type);
      expect(flags.format(name)).toBe(value);
    },
  );

  it('declares no flag of another daemon', () => {
    for (const row of ROWS.filter((r) => r[column] === null)) expect(flags.has(row[0])).toBe(false);
  });

  it('declares only flags the table lists (plus --logging-format)', () => {
    const listed = new Set([...ROWS.map((r) => r[0]), 'logging-format']);
    expect(flags.allSpecs().filter((s) => !listed.has(s.name))).toEqual([]);
  });
});

describe('per-daemon builders', () => {
  it('marks the scheduler deprecated flags as deprecated and the controller manager ones not', () => {
    const sched = parseFlags([], schedulerFlagSets()).flags;
    for (const name of [
      'port',
      'address',
      'kubeconfig',
      'orch-api-burst',
      'orch-api-qps',
      'orch-api-content-type',
      'scheduler-name',
      'algorithm-provider',
      'hard-pod-affinity-symmetric-weight',
      'policy-config-file',
      'policy-configmap',
      'policy-configmap-namespace',
      'use-legacy-policy-config',
      'lock-object-name',
      'lock-object-namespace',
      'profiling',
      'contention-profiling',
    ]) {
      expect(sched.spec(name)?.deprecated).toBeDefined();
    }
    const cm = parseFlags([], controllerManagerFlagSets()).flags;
    expect(cm.allSpecs().filter((s) => s.deprecated !== undefined)).toEqual([]);
  });

  it('puts every flag set under a Kubernetes-style section name', () => {
    expect(schedulerFlagSets().map((s) => s.name)).toEqual([
      'Misc',
      'Secure serving',
      'Authentication',
      'Authorization',
      'Deprecated',
      'Leader election',
      'Feature gate',
      'Logs',
    ]);
    expect(controllerManagerFlagSets().map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'Generic',
        'Nodeipam controller',
        'Replicationcontroller',
        'Debugging',
        'Misc',
      ]),
    );
  });
});
