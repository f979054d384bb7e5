import { readFileSync } from 'node:fs';
import {
  FlagError,
  cipherSuiteErrors,
  parseCABundle,
  requestHeaderOptionsFromFlags,
  tlsMinVersionErrors,
  type NamedCertKey,
  type ParsedFlags,
  type RequestHeaderOptions,
} from '@orch/component-base';
import type { StorageConfig } from './storage-factory';

/** orch-apiserver's configuration, built from its flags. */
export interface APIServerOptions {
  bindAddress: string;
  securePort: number;
  advertiseAddress?: string;
  certDir: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** `--tls-min-version`, empty for the runtime's default. */
  tlsMinVersion: string;
  /** `--tls-cipher-suites` (Go names), empty for the default suites. */
  tlsCipherSuites: string[];
  /** `--tls-sni-cert-key`: certificates served by the name a client asks for. */
  tlsSNICertKeys: NamedCertKey[];
  /** The `--requestheader-*` flags. */
  requestHeader: RequestHeaderOptions;
  storage: StorageConfig;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  requestTimeoutMs: number;
  /** `--min-request-timeout`, seconds. */
  minRequestTimeoutSeconds: number;
  /** `--watch-cache`. */
  watchCache: boolean;
  anonymousAuth: boolean;
  clientCAFile: string;
  tokenAuthFile: string;
  serviceAccountKeyFiles: string[];
  serviceAccountIssuer: string;
  /** `--service-account-lookup`. */
  serviceAccountLookup: boolean;
  serviceAccountSigningKeyFile: string;
  authorizationModes: string[];
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  serviceClusterIPRange: string;
  serviceNodePortRange: string;
  /** `--event-ttl`, in seconds. */
  eventTTLSeconds: number;
  /** The `--kubelet-*` flags: how pods/log reaches the node agents. */
  kubelet: {
    clientCertificate: string;
    clientKey: string;
    certificateAuthority: string;
    preferredAddressTypes: string[];
    timeoutMs: number;
  };
}

const authorizationModes = new Set(['AlwaysAllow', 'AlwaysDeny', 'RBAC']);

/** The contents of a file a flag names; a FlagError naming the flag when it cannot be read. */
function readFlagFile(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new FlagError(`cannot read file "${file}" given by --${flag}: ${(e as Error).message}`);
  }
}

/** Reads the flags into options, rejecting values that make no sense with a message naming the flag. */
export function apiserverOptions(flags: ParsedFlags): APIServerOptions {
  const backend = flags.string('storage-backend');
  if (backend !== 'etcd3' && backend !== 'embedded') {
    throw new FlagError(
      `invalid value "${backend}" for flag --storage-backend: must be one of etcd3, embedded`,
    );
  }
  const etcdServers = flags.strings('etcd-servers');
  if (backend === 'etcd3' && etcdServers.length === 0) {
    throw new FlagError('--etcd-servers must be specified when --storage-backend=etcd3');
  }
  if (Boolean(flags.string('etcd-certfile')) !== Boolean(flags.string('etcd-keyfile'))) {
    throw new FlagError('--etcd-certfile and --etcd-keyfile must be given together');
  }
  const etcdPrefix = flags.string('etcd-prefix');
  if (!etcdPrefix.startsWith('/')) {
    throw new FlagError(`invalid value "${etcdPrefix}" for flag --etcd-prefix: must start with "/"`);
  }
  const minRequestTimeout = flags.number('min-request-timeout');
  if (!(minRequestTimeout > 0)) {
    throw new FlagError(
      `invalid value "${minRequestTimeout}" for flag --min-request-timeout: must be a positive number of seconds`,
    );
  }
  const eventTTL = flags.duration('event-ttl');
  if (!(eventTTL >= 0)) {
    throw new FlagError(
      `invalid value "${flags.format('event-ttl')}" for flag --event-ttl: must not be negative`,
    );
  }
  const tlsErrors = [
    ...tlsMinVersionErrors(flags.string('tls-min-version')),
    ...cipherSuiteErrors(flags.strings('tls-cipher-suites')),
  ];
  if (tlsErrors.length) throw new FlagError(tlsErrors.join('; '));
  const modes = flags.strings('authorization-mode');
  for (const m of modes) {
    if (!authorizationModes.has(m)) {
      throw new FlagError(
        `invalid value "${m}" for flag --authorization-mode: authorization modes must be one of AlwaysAllow, AlwaysDeny, RBAC`,
      );
    }
  }
  const sniCertKeys = flags.get('tls-sni-cert-key', 'namedCertKey');
  for (const { certFile, keyFile } of sniCertKeys) {
    readFlagFile(certFile, 'tls-sni-cert-key');
    readFlagFile(keyFile, 'tls-sni-cert-key');
  }
  for (const name of [
    'client-ca-file',
    'token-auth-file',
    'service-account-signing-key-file',
    'tls-cert-file',
    'tls-private-key-file',
    'etcd-cafile',
    'etcd-certfile',
    'etcd-keyfile',
  ]) {
    const file = flags.string(name);
    if (file) readFlagFile(file, name);
  }
  // read once, and parsed: it must hold certificates
  const requestHeaderCA = flags.string('requestheader-client-ca-file');
  if (requestHeaderCA) {
    const pem = readFlagFile(requestHeaderCA, 'requestheader-client-ca-file');
    try {
      parseCABundle(pem);
    } catch (e) {
      throw new FlagError(
        `invalid file "${requestHeaderCA}" given by --requestheader-client-ca-file: ${(e as Error).message}`,
      );
    }
  }
  return {
    bindAddress: flags.string('bind-address') || '0.0.0.0',
    securePort: flags.number('secure-port'),
    advertiseAddress: flags.string('advertise-address') || undefined,
    certDir: flags.string('cert-dir') || '/var/run/orch',
    tlsCertFile: flags.string('tls-cert-file'),
    tlsPrivateKeyFile: flags.string('tls-private-key-file'),
    tlsMinVersion: flags.string('tls-min-version'),
    tlsCipherSuites: flags.strings('tls-cipher-suites'),
    tlsSNICertKeys: sniCertKeys,
    requestHeader: requestHeaderOptionsFromFlags(flags),
    storage: {
      backend,
      etcdServers,
      etcdCompactionIntervalMs: flags.duration('etcd-compaction-interval'),
      etcdPrefix,
      etcdCAFile: flags.string('etcd-cafile'),
      etcdCertFile: flags.string('etcd-certfile'),
      etcdKeyFile: flags.string('etcd-keyfile'),
      embeddedDir: flags.string('embedded-storage-dir'),
    },
    maxRequestsInflight: flags.number('max-requests-inflight'),
    maxMutatingRequestsInflight: flags.number('max-mutating-requests-inflight'),
    requestTimeoutMs: flags.duration('request-timeout'),
    minRequestTimeoutSeconds: minRequestTimeout,
    watchCache: flags.bool('watch-cache'),
    anonymousAuth: flags.bool('anonymous-auth'),
    clientCAFile: flags.string('client-ca-file'),
    tokenAuthFile: flags.string('token-auth-file'),
    serviceAccountKeyFiles: flags.strings('service-account-key-file'),
    serviceAccountIssuer: flags.string('service-account-issuer'),
    serviceAccountLookup: flags.bool('service-account-lookup'),
    serviceAccountSigningKeyFile: flags.string('service-account-signing-key-file'),
    authorizationModes: modes,
    enableAdmissionPlugins: flags.strings('enable-admission-plugins'),
    disableAdmissionPlugins: flags.strings('disable-admission-plugins'),
    serviceClusterIPRange: flags.string('service-cluster-ip-range'),
    serviceNodePortRange: flags.string('service-node-port-range'),
    eventTTLSeconds: eventTTL / 1000,
    kubelet: {
      clientCertificate: flags.string('kubelet-client-certificate'),
      clientKey: flags.string('kubelet-client-key'),
      certificateAuthority: flags.string('kubelet-certificate-authority'),
      preferredAddressTypes: flags.strings('kubelet-preferred-address-types'),
      timeoutMs: flags.duration('kubelet-timeout'),
    },
  };
}
