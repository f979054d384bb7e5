import { isIP } from 'node:net';
import { join } from 'node:path';
import { parseQuantity, type Taint } from '@orch/api';
import {
  clientConnectionOptionsFromFlags,
  DEFAULT_FEATURE_GATES,
  errorMessage,
  FeatureGate,
  type ClientConnectionOptions,
  type FlagValidator,
  type ParsedFlags,
} from '@orch/component-base';
import { MAX_SIMULATED_NODES } from '../node/addresses';
import { UNINITIALIZED_TAINT } from '../node/nodeObjects';

/** What orch-node-agent runs with (durations in milliseconds). */
export interface NodeAgentConfiguration {
  clientConnection: ClientConnectionOptions;
  nodes: number;
  nodeNamePrefix: string;
  hostnameOverride: string;
  nodeLabels: Record<string, string>;
  registerWithTaints: Taint[];
  /** --cloud-provider=external: nodes wait for a cloud controller manager to initialize them. */
  externalCloudProvider: boolean;
  /** cpu, memory, pods, ephemeral-storage. */
  capacity: Record<string, string>;
  reserved: Record<string, string>;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationSeconds: number;
  podStartLatencyMs: number;
  podRunDurationMs: number;
  /** simulated: status from a timeline; process: containers run as local processes. */
  podRuntime: PodRuntimeMode;
  /** The agent's directory: the process runtime's logs, termination messages and working directories, and `pki`. */
  rootDir: string;
  writers: number;
  /** The agent's HTTPS server (--address, --port, --client-ca-file, --tls-*, --cert-dir). */
  server: {
    bindAddress: string;
    port: number;
    clientCAFile: string;
    certFile: string;
    keyFile: string;
    certDir: string;
  };
  /** --node-ip: the InternalIP every node reports (empty: the process runtime picks this host's; simulated ones). */
  nodeIP: string;
}

export const POD_RUNTIME_MODES = ['simulated', 'process'] as const;
export type PodRuntimeMode = (typeof POD_RUNTIME_MODES)[number];

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const QUANTITY_FLAGS = ['node-cpu', 'node-memory', 'node-ephemeral-storage'];

/** Parses `key=value` pairs (a value may be empty); throws naming the malformed pair. */
export function parseKeyValues(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`invalid format: ${pair}, expected key=value`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/** Parses taints written `<key>=<value>:<effect>` or `<key>:<effect>`, as the kubelet does. */
export function parseTaints(specs: readonly string[]): Taint[] {
  return specs
    .filter((s) => s !== '')
    .map((spec) => {
      const colon = spec.lastIndexOf(':');
      if (colon <= 0) throw new Error(`invalid taint spec: ${spec}`);
      const effect = spec.slice(colon + 1);
      if (!TAINT_EFFECTS.includes(effect)) {
        throw new Error(`invalid taint effect: ${effect}, unsupported taint effect`);
      }
      const kv = spec.slice(0, colon);
      const eq = kv.indexOf('=');
      const key = eq < 0 ? kv : kv.slice(0, eq);
      if (key === '') throw new Error(`invalid taint spec: ${spec}`);
      return eq < 0 ? { key, effect } : { key, value: kv.slice(eq + 1), effect };
    }) as Taint[];
}

/** The taints to register with: the flag's, plus the uninitialized taint with an external cloud provider. */
function registerTaints(taints: Taint[], external: boolean): Taint[] {
  if (!external || taints.some((t) => t.key === UNINITIALIZED_TAINT.key)) return taints;
  return [...taints, { ...UNINITIALIZED_TAINT }];
}

function parseReserved(pairs: readonly string[]): Record<string, string> {
  const reserved = parseKeyValues(pairs);
  for (const value of Object.values(reserved)) parseQuantity(value);
  return reserved;
}

/** Validation of orch-node-agent's flags; every problem names its flag. */
export function nodeAgentValidators(): FlagValidator[] {
  const attempt = (name: string, fn: () => unknown): string[] => {
    try {
      fn();
      return [];
    } catch (err) {
      return [`--${name}: ${errorMessage(err)}`];
    }
  };
  return [
    (flags) => {
      const n = flags.number('nodes');
      return n < 1 || n > MAX_SIMULATED_NODES
        ? [`--nodes ${n} must be between 1 and ${MAX_SIMULATED_NODES}`]
        : [];
    },
    (flags) => (flags.string('node-name-prefix') === '' ? ['--node-name-prefix must not be empty'] : []),
    (flags) =>
      ['', 'external'].includes(flags.string('cloud-provider'))
        ? []
        : [
            `--cloud-provider: unsupported cloud provider "${flags.string('cloud-provider')}"; use "external" or ""`,
          ],
    (flags) =>
      flags.string('hostname-override') !== '' && flags.number('nodes') !== 1
        ? ['--hostname-override can only be used with --nodes=1']
        : [],
    (flags) => attempt('node-labels', () => parseKeyValues(flags.strings('node-labels'))),
    (flags) => attempt('register-with-taints', () => parseTaints(flags.strings('register-with-taints'))),
    (flags) => attempt('node-reserved', () => parseReserved(flags.strings('node-reserved'))),
    (flags) =>
      QUANTITY_FLAGS.flatMap((name) => {
        const problems = attempt(name, () => parseQuantity(flags.string(name)));
        if (problems.length === 0 && parseQuantity(flags.string(name)).sign() < 0)
          return [`--${name} must not be negative`];
        return problems;
      }),
    (flags) => (flags.number('node-pods') < 0 ? ['--node-pods must not be negative'] : []),
    (flags) =>
      ['node-status-update-frequency', 'node-status-report-frequency']
        .filter((name) => flags.duration(name) <= 0)
        .map((name) => `--${name} must be greater than zero`),
    (flags) =>
      flags.number('node-lease-duration-seconds') <= 0
        ? ['--node-lease-duration-seconds must be greater than zero']
        : [],
    (flags) =>
      ['pod-start-latency', 'pod-run-duration']
        .filter((name) => flags.duration(name) < 0)
        .map((name) => `--${name} must not be negative`),
    (flags) =>
      (POD_RUNTIME_MODES as readonly string[]).includes(flags.string('pod-runtime'))
        ? []
        : [
            `--pod-runtime: unsupported pod runtime "${flags.string('pod-runtime')}"; use simulated or process`,
          ],
    (flags) => (flags.string('root-dir') === '' ? ['--root-dir must not be empty'] : []),
    (flags) => (flags.number('node-writers') < 1 ? ['--node-writers must be at least 1'] : []),
    (flags) =>
      flags.number('port') < 0 || flags.number('port') > 65535 ? ['--port must be between 0 and 65535'] : [],
    (flags) =>
      ['address', 'node-ip']
        .filter((name) => flags.string(name) !== '' && isIP(flags.string(name)) === 0)
        .map((name) => `--${name}: invalid IP address "${flags.string(name)}"`),
    (flags) =>
      (flags.string('tls-cert-file') === '') !== (flags.string('tls-private-key-file') === '')
        ? ['--tls-cert-file and --tls-private-key-file must be given together']
        : [],
    (flags) => {
      const format = flags.string('logging-format');
      return format === 'text' || format === 'json'
        ? []
        : [`--logging-format: unsupported log format "${format}"; use text or json`];
    },
    (flags) =>
      new FeatureGate(DEFAULT_FEATURE_GATES)
        .set(flags.get('feature-gates', 'mapStringBool'))
        .map((e) => `--feature-gates: ${e}`),
    (flags) =>
      ['orch-api-qps', 'orch-api-burst']
        .filter((name) => flags.number(name) < 0)
        .map((name) => `--${name} must not be negative`),
  ];
}

/** The configuration from validated flags. */
export function buildNodeAgentConfig(flags: ParsedFlags): NodeAgentConfiguration {
  return {
    clientConnection: clientConnectionOptionsFromFlags(flags),
    nodes: flags.number('nodes'),
    nodeNamePrefix: flags.string('node-name-prefix'),
    hostnameOverride: flags.string('hostname-override'),
    nodeLabels: parseKeyValues(flags.strings('node-labels')),
    registerWithTaints: registerTaints(
      parseTaints(flags.strings('register-with-taints')),
      flags.string('cloud-provider') === 'external',
    ),
    externalCloudProvider: flags.string('cloud-provider') === 'external',
    capacity: {
      cpu: flags.string('node-cpu'),
      memory: flags.string('node-memory'),
      pods: String(flags.number('node-pods')),
      'ephemeral-storage': flags.string('node-ephemeral-storage'),
    },
    reserved: parseReserved(flags.strings('node-reserved')),
    nodeStatusUpdateFrequencyMs: flags.duration('node-status-update-frequency'),
    nodeStatusReportFrequencyMs: flags.duration('node-status-report-frequency'),
    nodeLeaseDurationSeconds: flags.number('node-lease-duration-seconds'),
    podStartLatencyMs: flags.duration('pod-start-latency'),
    podRunDurationMs: flags.duration('pod-run-duration'),
    podRuntime: flags.string('pod-runtime') as PodRuntimeMode,
    rootDir: flags.string('root-dir'),
    writers: flags.number('node-writers'),
    server: {
      bindAddress: flags.string('address'),
      port: flags.number('port'),
      clientCAFile: flags.string('client-ca-file'),
      certFile: flags.string('tls-cert-file'),
      keyFile: flags.string('tls-private-key-file'),
      certDir: flags.string('cert-dir') || join(flags.string('root-dir'), 'pki'),
    },
    nodeIP: flags.string('node-ip'),
  };
}

/** The names of the simulated nodes: `<prefix>-<i>`, or --hostname-override for a single node. */
export function nodeNames(
  cfg: Pick<NodeAgentConfiguration, 'nodes' | 'nodeNamePrefix' | 'hostnameOverride'>,
): string[] {
  if (cfg.nodes === 1 && cfg.hostnameOverride !== '') return [cfg.hostnameOverride.toLowerCase()];
  return Array.from({ length: cfg.nodes }, (_, i) => `${cfg.nodeNamePrefix}-${i}`);
}
