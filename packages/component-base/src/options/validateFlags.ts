import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resourceLockTypes } from '@orch/client';
import { DEFAULT_FEATURE_GATES } from '../featuregate/defaultFeatureGates';
import { FeatureGate } from '../featuregate/featureGate';
import { cipherSuiteErrors, tlsMinVersionErrors } from '../server/tlsSettings';
import { loadSigningCA } from '../certs/certificate-request';
import { loadCABundleFile } from '../auth/clientCertificates';
import { parsePrivateKeyPEM } from '../auth/serviceAccountToken';
import {
  CLOUD_CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_CONTROLLERS,
  CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  isControllerEnabled,
  validateControllers,
} from './controllers';
import type { DaemonKind } from './daemonKind';
import { nodeIpamConfig } from './nodeIpamConfig';
import { formatDuration } from './duration';
import { isCIDR, splitList } from './flagTypes';
import type { ParsedFlags } from './parsedFlags';

/** A validation rule: returns the problems it finds, each naming the flag. */
export type FlagValidator = (flags: ParsedFlags) => string[];

const LOGGING_FORMATS = ['text', 'json'];
const ALGORITHM_PROVIDERS = ['ClusterAutoscalerProvider', 'DefaultProvider'];

function portRule(name: string, what: string): FlagValidator {
  return (flags) => {
    if (!flags.has(name)) return [];
    const port = flags.number(name);
    return port < 0 || port > 65535
      ? [`--${name} ${port} must be between 0 and 65535, inclusive. 0 for turning off ${what}`]
      : [];
  };
}

const servingRules: FlagValidator[] = [
  portRule('secure-port', 'secure port'),
  portRule('port', 'insecure port'),
  (flags) =>
    flags.has('http2-max-streams-per-connection') && flags.number('http2-max-streams-per-connection') < 0
      ? ['--http2-max-streams-per-connection must not be negative']
      : [],
  (flags) => (flags.has('tls-min-version') ? tlsMinVersionErrors(flags.string('tls-min-version')) : []),
  (flags) => (flags.has('tls-cipher-suites') ? cipherSuiteErrors(flags.strings('tls-cipher-suites')) : []),
  (flags) => {
    if (!flags.has('tls-cert-file')) return [];
    const cert = flags.string('tls-cert-file');
    const key = flags.string('tls-private-key-file');
    if ((cert === '') === (key === '')) return [];
    return ['--tls-cert-file and --tls-private-key-file must be given together'];
  },
];

const leaderElectionRules: FlagValidator[] = [
  (flags) => {
    if (!flags.has('leader-elect') || !flags.bool('leader-elect')) return [];
    const errors: string[] = [];
    const lease = flags.duration('leader-elect-lease-duration');
    const renew = flags.duration('leader-elect-renew-deadline');
    const retry = flags.duration('leader-elect-retry-period');
    if (lease <= 0) errors.push('--leader-elect-lease-duration must be greater than zero');
    if (renew <= 0) errors.push('--leader-elect-renew-deadline must be greater than zero');
    if (retry <= 0) errors.push('--leader-elect-retry-period must be greater than zero');
    if (renew > lease) {
      errors.push(
        `--leader-elect-renew-deadline (${formatDuration(renew)}) must be less than or equal to --leader-elect-lease-duration (${formatDuration(lease)})`,
      );
    }
    const lock = flags.string('leader-elect-resource-lock');
    if (!(resourceLockTypes as readonly string[]).includes(lock)) {
      errors.push(
        `--leader-elect-resource-lock: unknown lock type "${lock}"; use one of ${resourceLockTypes.join(', ')}`,
      );
    }
    if (flags.string('leader-elect-resource-name') === '')
      errors.push('--leader-elect-resource-name must not be empty');
    return errors;
  },
];

const genericRules: FlagValidator[] = [
  (flags) => {
    if (!flags.has('logging-format')) return [];
    const format = flags.string('logging-format');
    return LOGGING_FORMATS.includes(format)
      ? []
      : [`--logging-format: unsupported log format "${format}"; use text or json`];
  },
  (flags) => {
    if (!flags.has('feature-gates')) return [];
    return new FeatureGate(DEFAULT_FEATURE_GATES)
      .set(flags.get('feature-gates', 'mapStringBool'))
      .map((e) => `--feature-gates: ${e}`);
  },
  (flags) =>
    flags.has('orch-api-qps') && flags.number('orch-api-qps') < 0
      ? ['--orch-api-qps must not be negative']
      : [],
  (flags) =>
    flags.has('orch-api-burst') && flags.number('orch-api-burst') < 0
      ? ['--orch-api-burst must not be negative']
      : [],
];

const schedulerRules: FlagValidator[] = [
  (flags) => {
    const weight = flags.number('hard-pod-affinity-symmetric-weight');
    return weight < 0 || weight > 100
      ? [`--hard-pod-affinity-symmetric-weight ${weight} must be in the range 0-100`]
      : [];
  },
  (flags) => {
    const provider = flags.string('algorithm-provider');
    return provider === '' || ALGORITHM_PROVIDERS.includes(provider)
      ? []
      : [`--algorithm-provider: unknown provider "${provider}"; use ${ALGORITHM_PROVIDERS.join(' or ')}`];
  },
];

function cidrListErrors(flag: string, value: string): string[] {
  if (value === '') return [];
  return splitList(value)
    .filter((c) => !isCIDR(c))
    .map((c) => `--${flag}: invalid CIDR address: ${c}`);
}

const nodeIpamRules: FlagValidator[] = [
  (flags) => cidrListErrors('cluster-cidr', flags.string('cluster-cidr')),
  (flags) => cidrListErrors('service-cluster-ip-range', flags.string('service-cluster-ip-range')),
  (flags) => {
    const mask = flags.number('node-cidr-mask-size');
    const cidrs = splitList(flags.string('cluster-cidr')).filter(isCIDR);
    const ipv6Only = cidrs.length > 0 && cidrs.every((c) => isIP(c.split('/')[0]) === 6);
    const max = ipv6Only ? 128 : 32;
    if (mask < 1 || mask > max) return [`--node-cidr-mask-size ${mask} must be between 1 and ${max}`];
    const errors: string[] = [];
    for (const cidr of cidrs) {
      const prefix = Number(cidr.split('/')[1]);
      const family = isIP(cidr.split('/')[0]);
      // an IPv6 cluster CIDR gets /64 node CIDRs unless the flag says otherwise (Kubernetes' default)
      if ((family === 4 || (ipv6Only && flags.changed('node-cidr-mask-size'))) && prefix > mask) {
        errors.push(
          `--node-cidr-mask-size ${mask} must not be smaller than the --cluster-cidr ${cidr} prefix length`,
        );
      }
    }
    return errors;
  },
];

/** Whether the controller manager's --controllers enables a controller. */
function enabled(flags: ParsedFlags, controller: string): boolean {
  return isControllerEnabled(
    controller,
    flags.strings('controllers'),
    CONTROLLER_MANAGER_DISABLED_BY_DEFAULT,
  );
}

const controllerManagerRules: FlagValidator[] = [
  // a signing CA given on the command line must be usable; the default files may be missing (the
  // CSR signer is then skipped)
  (flags) => {
    if (!flags.changed('cluster-signing-cert-file') && !flags.changed('cluster-signing-key-file')) return [];
    try {
      loadSigningCA(flags.string('cluster-signing-cert-file'), flags.string('cluster-signing-key-file'));
      return [];
    } catch (e) {
      return [`--cluster-signing-cert-file, --cluster-signing-key-file: ${(e as Error).message}`];
    }
  },
  (flags) =>
    validateControllers(flags.strings('controllers'), CONTROLLER_MANAGER_CONTROLLERS).map(
      (e) => `--controllers: ${e}`,
    ),
  // the controllers that read --root-ca-file do not start without a PEM CA bundle in it
  (flags) => {
    const file = flags.string('root-ca-file');
    const readers = ['root-ca-cert-publisher', 'serviceaccount-token'];
    const controllers = flags.strings('controllers');
    if (
      !file ||
      !readers.some((n) => isControllerEnabled(n, controllers, CONTROLLER_MANAGER_DISABLED_BY_DEFAULT))
    )
      return [];
    try {
      loadCABundleFile(file);
      return [];
    } catch (e) {
      return [`--root-ca-file: ${(e as Error).message}`];
    }
  },
  // the tokens controller does not start with a key it cannot sign with
  (flags) => {
    const file = flags.string('service-account-private-key-file');
    if (!file || !enabled(flags, 'serviceaccount-token')) return [];
    try {
      parsePrivateKeyPEM(readFileSync(file, 'utf8'));
      return [];
    } catch (e) {
      return [
        `--service-account-private-key-file: error reading key for service account token controller: ${(e as Error).message}`,
      ];
    }
  },
  ...nodeIpamRules,
  // the node IPAM controller does not start with CIDRs it cannot allocate from
  (flags) => {
    if (!flags.bool('allocate-node-cidrs') || !enabled(flags, 'nodeipam')) return [];
    try {
      nodeIpamConfig({
        cidrAllocatorType: flags.string('cidr-allocator-type'),
        clusterCIDR: flags.string('cluster-cidr'),
        serviceClusterIPRange: flags.string('service-cluster-ip-range'),
        nodeCIDRMaskSize: flags.changed('node-cidr-mask-size')
          ? flags.number('node-cidr-mask-size')
          : undefined,
      });
      return [];
    } catch (e) {
      return [(e as Error).message];
    }
  },
  // the EndpointSlice controller's bounds
  (flags) =>
    (
      [
        ['concurrent-service-endpoint-syncs', 1, 50],
        ['max-endpoints-per-slice', 1, 1000],
      ] as const
    ).flatMap(([name, min, max]) => {
      const value = flags.number(name);
      if (value < min) return [`--${name} must not be less than ${min}, but got ${value}`];
      return value > max ? [`--${name} must not be more than ${max}, but got ${value}`] : [];
    }),
  (flags) =>
    flags.duration('attach-detach-reconcile-sync-period') <= 1000
      ? ['--attach-detach-reconcile-sync-period must be longer than one second']
      : [],
  (flags) =>
    flags.number('horizontal-pod-autoscaler-tolerance') < 0
      ? ['--horizontal-pod-autoscaler-tolerance must not be negative']
      : [],
  (flags) =>
    ['node-eviction-rate', 'secondary-node-eviction-rate']
      .filter((n) => flags.number(n) < 0)
      .map((n) => `--${n} must not be negative`),
  (flags) => {
    const t = flags.number('unhealthy-zone-threshold');
    return t <= 0 || t > 1 ? ['--unhealthy-zone-threshold must be in the range (0, 1]'] : [];
  },
  (flags) =>
    flags.number('large-cluster-size-threshold') < 0
      ? ['--large-cluster-size-threshold must not be negative']
      : [],
  (flags) =>
    ['node-monitor-grace-period', 'node-monitor-period', 'node-startup-grace-period', 'pod-eviction-timeout']
      .filter((n) => flags.duration(n) <= 0)
      .map((n) => `--${n} must be greater than zero`),
];

const cloudControllerManagerRules: FlagValidator[] = [
  (flags) =>
    validateControllers(flags.strings('controllers'), CLOUD_CONTROLLER_MANAGER_CONTROLLERS).map(
      (e) => `--controllers: ${e}`,
    ),
  (flags) => cidrListErrors('cluster-cidr', flags.string('cluster-cidr')),
];

/** The validation rules of a daemon: shared ones plus its own. */
export function daemonValidators(daemon: DaemonKind): FlagValidator[] {
  const shared = [...servingRules, ...leaderElectionRules, ...genericRules];
  switch (daemon) {
    case 'scheduler':
      return [...shared, ...schedulerRules];
    case 'controller-manager':
      return [...shared, ...controllerManagerRules];
    case 'cloud-controller-manager':
      return [...shared, ...cloudControllerManagerRules];
  }
}

/** Runs every rule and collects all problems. */
export function validateFlags(flags: ParsedFlags, validators: readonly FlagValidator[]): string[] {
  return validators.flatMap((rule) => rule(flags));
}
