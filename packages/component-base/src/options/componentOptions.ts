import type { ParsedFlags } from './parsedFlags';

/** What the leader election flags configure (durations in milliseconds). */
export interface LeaderElectionOptions {
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceLock: string;
  resourceName: string;
  resourceNamespace: string;
}

/** What the client connection flags configure. */
export interface ClientConnectionOptions {
  kubeconfig: string;
  master: string;
  qps: number;
  burst: number;
  contentType: string;
}

/** What the `--requestheader-*` flags configure (the CA file's path; empty lists when not given). */
export interface RequestHeaderOptions {
  clientCAFile: string;
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

/** What the delegated authentication flags configure. */
export interface AuthenticationOptions {
  kubeconfig: string;
  skipLookup: boolean;
  tokenWebhookCacheTtlMs: number;
  tolerateLookupFailure: boolean;
  clientCAFile: string;
  requestHeader: RequestHeaderOptions;
}

/** What the delegated authorization flags configure. */
export interface AuthorizationOptions {
  kubeconfig: string;
  alwaysAllowPaths: string[];
  allowCacheTtlMs: number;
  denyCacheTtlMs: number;
}

/** An explicitly given deprecated flag wins over its replacement left at its default. */
function preferLegacy(flags: ParsedFlags, current: string, legacy: string): string {
  if (flags.has(legacy) && flags.changed(legacy) && !flags.changed(current)) return flags.string(legacy);
  return flags.string(current);
}

/** Reads the leader election flags (honouring the scheduler's --lock-object-name/-namespace). */
export function leaderElectionOptionsFromFlags(flags: ParsedFlags): LeaderElectionOptions {
  return {
    leaderElect: flags.bool('leader-elect'),
    leaseDurationMs: flags.duration('leader-elect-lease-duration'),
    renewDeadlineMs: flags.duration('leader-elect-renew-deadline'),
    retryPeriodMs: flags.duration('leader-elect-retry-period'),
    resourceLock: flags.string('leader-elect-resource-lock'),
    resourceName: preferLegacy(flags, 'leader-elect-resource-name', 'lock-object-name'),
    resourceNamespace: preferLegacy(flags, 'leader-elect-resource-namespace', 'lock-object-namespace'),
  };
}

/** Reads --kubeconfig, --master and the --orch-api-* flags. */
export function clientConnectionOptionsFromFlags(flags: ParsedFlags): ClientConnectionOptions {
  return {
    kubeconfig: flags.string('kubeconfig'),
    master: flags.string('master'),
    qps: flags.number('orch-api-qps'),
    burst: flags.number('orch-api-burst'),
    contentType: flags.string('orch-api-content-type'),
  };
}

/** Reads the delegated authentication flags. */
export function authenticationOptionsFromFlags(flags: ParsedFlags): AuthenticationOptions {
  return {
    kubeconfig: flags.string('authentication-kubeconfig'),
    skipLookup: flags.bool('authentication-skip-lookup'),
    tokenWebhookCacheTtlMs: flags.duration('authentication-token-webhook-cache-ttl'),
    tolerateLookupFailure: flags.bool('authentication-tolerate-lookup-failure'),
    clientCAFile: flags.string('client-ca-file'),
    requestHeader: requestHeaderOptionsFromFlags(flags),
  };
}

/** Reads the `--requestheader-*` flags (of the delegating daemons and of the apiserver). */
export function requestHeaderOptionsFromFlags(flags: ParsedFlags): RequestHeaderOptions {
  return {
    clientCAFile: flags.string('requestheader-client-ca-file'),
    allowedNames: flags.strings('requestheader-allowed-names'),
    usernameHeaders: flags.strings('requestheader-username-headers'),
    groupHeaders: flags.strings('requestheader-group-headers'),
    extraHeaderPrefixes: flags.strings('requestheader-extra-headers-prefix'),
  };
}

/** Reads the delegated authorization flags. */
export function authorizationOptionsFromFlags(flags: ParsedFlags): AuthorizationOptions {
  return {
    kubeconfig: flags.string('authorization-kubeconfig'),
    alwaysAllowPaths: flags.strings('authorization-always-allow-paths'),
    allowCacheTtlMs: flags.duration('authorization-webhook-cache-authorized-ttl'),
    denyCacheTtlMs: flags.duration('authorization-webhook-cache-unauthorized-ttl'),
  };
}
