import { parseTime } from '../../util/meta/time';
import type { Secret } from './secret';

/** The type of the Secrets holding bootstrap tokens. */
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';

/** Bootstrap token Secrets are named `bootstrap-token-<token-id>`. */
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';

/** The namespace of the bootstrap token Secrets. */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'orch-system';

/** The data keys of a bootstrap token Secret. */
export const BOOTSTRAP_TOKEN_KEYS = {
  /** The public part of the token, six characters of [a-z0-9]; required. */
  id: 'token-id',
  /** The private part, sixteen characters of [a-z0-9]; required. */
  secret: 'token-secret',
  /** When the token stops being valid, an RFC 3339 time; optional (never). */
  expiration: 'expiration',
  description: 'description',
  /** Comma-separated groups the token authenticates as besides system:bootstrappers. */
  extraGroups: 'auth-extra-groups',
  /** Prefix of the usage keys; a usage is on when its value is "true". */
  usagePrefix: 'usage-bootstrap-',
  /** The token signs the cluster-info ConfigMap. */
  usageSigning: 'usage-bootstrap-signing',
  /** The token authenticates as a bearer token `<token-id>.<token-secret>`. */
  usageAuthentication: 'usage-bootstrap-authentication',
} as const;

/** The usages a bootstrap token may have (the names after `usage-bootstrap-`). */
export const BOOTSTRAP_TOKEN_USAGES: readonly string[] = ['signing', 'authentication'];

/** The public ConfigMap that bootstrap tokens sign, and where. */
export const CLUSTER_INFO_NAMESPACE = 'orch-public';
export const CLUSTER_INFO_CONFIG_MAP = 'cluster-info';
/** The key of cluster-info holding the kubeconfig signed. */
export const CLUSTER_INFO_KUBECONFIG_KEY = 'kubeconfig';
/** cluster-info holds the signature of each signing token under `jws-kubeconfig-<token-id>`. */
export const JWS_SIGNATURE_KEY_PREFIX = 'jws-kubeconfig-';

const TOKEN_ID = /^[a-z0-9]{6}$/;
const TOKEN_SECRET = /^[a-z0-9]{16}$/;
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;

/** Whether `id` is a well-formed token id. */
export function isValidBootstrapTokenID(id: string): boolean {
  return TOKEN_ID.test(id);
}

/** Whether `secret` is a well-formed token secret. */
export function isValidBootstrapTokenSecret(secret: string): boolean {
  return TOKEN_SECRET.test(secret);
}

/** The id and secret of a bearer token `<token-id>.<token-secret>`, if it is one. */
export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = TOKEN.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

/** The name of the Secret of token `id`. */
export function bootstrapTokenSecretName(id: string): string {
  return `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`;
}

/** The token id a Secret name `bootstrap-token-<token-id>` carries, if it is one. */
export function parseBootstrapTokenSecretName(name: string): string | undefined {
  if (!name.startsWith(BOOTSTRAP_TOKEN_SECRET_PREFIX)) return undefined;
  const id = name.slice(BOOTSTRAP_TOKEN_SECRET_PREFIX.length);
  return isValidBootstrapTokenID(id) ? id : undefined;
}

/** Whether a Secret is a bootstrap token Secret: of its type, in its namespace. */
export function isBootstrapTokenSecret(secret: Secret): boolean {
  return (
    secret.type === BOOTSTRAP_TOKEN_SECRET_TYPE && secret.metadata?.namespace === BOOTSTRAP_TOKEN_NAMESPACE
  );
}

/** The decoded value of a key of the Secret's data; empty when missing. */
export function bootstrapTokenData(secret: Secret, key: string): string {
  const value = secret.data?.[key];
  return value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
}

/**
 * When the token expires: `expired` once its expiration has passed, or when the expiration cannot
 * be parsed; otherwise the ms left (`remainingMs`, undefined for a token without expiration).
 */
export function bootstrapTokenExpiration(
  secret: Secret,
  nowMs: number,
): { expired: boolean; remainingMs?: number } {
  const expiration = bootstrapTokenData(secret, BOOTSTRAP_TOKEN_KEYS.expiration);
  if (expiration === '') return { expired: false };
  let at: number;
  try {
    at = parseTime(expiration);
  } catch {
    return { expired: true };
  }
  const remainingMs = at - nowMs;
  return remainingMs <= 0 ? { expired: true } : { expired: false, remainingMs };
}

/** The usages the token has (those whose `usage-bootstrap-<usage>` key is "true"), sorted. */
export function bootstrapTokenUsages(secret: Secret): string[] {
  return Object.keys(secret.data ?? {})
    .filter((k) => k.startsWith(BOOTSTRAP_TOKEN_KEYS.usagePrefix))
    .filter((k) => bootstrapTokenData(secret, k) === 'true')
    .map((k) => k.slice(BOOTSTRAP_TOKEN_KEYS.usagePrefix.length))
    .sort();
}

/**
 * The id and secret of a token that may sign cluster-info at `nowMs` (Kubernetes' rules): its
 * Secret named after its token-id, a token-secret, not expired, and usage-bootstrap-signing "true".
 * The Secret's type and namespace are the caller's to check.
 */
export function bootstrapTokenForSigning(
  secret: Secret,
  nowMs: number,
): { id: string; secret: string; remainingMs?: number } | undefined {
  const nameID = parseBootstrapTokenSecretName(secret.metadata?.name ?? '');
  if (nameID === undefined) return undefined;
  const id = bootstrapTokenData(secret, BOOTSTRAP_TOKEN_KEYS.id);
  if (id !== nameID) return undefined;
  const tokenSecret = bootstrapTokenData(secret, BOOTSTRAP_TOKEN_KEYS.secret);
  if (tokenSecret === '') return undefined;
  const expiration = bootstrapTokenExpiration(secret, nowMs);
  if (expiration.expired) return undefined;
  if (bootstrapTokenData(secret, BOOTSTRAP_TOKEN_KEYS.usageSigning) !== 'true') return undefined;
  return {
    id,
    secret: tokenSecret,
    ...(expiration.remainingMs !== undefined ? { remainingMs: expiration.remainingMs } : {}),
  };
}
