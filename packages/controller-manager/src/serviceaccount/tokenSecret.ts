import type { Secret, ServiceAccount } from '@orch/api';

/** The type of a secret holding a service account's token. */
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
/** The annotation naming the token secret's service account. */
export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
/** The annotation holding the UID of the token secret's service account. */
export const SERVICE_ACCOUNT_UID_KEY = 'kubernetes.io/service-account.uid';
/** The data keys the tokens controller fills. */
export const TOKEN_KEY = 'token';
export const ROOT_CA_KEY = 'ca.crt';
export const NAMESPACE_KEY = 'namespace';

/** The service account a token secret names, by its annotations. */
export function tokenSecretAccount(secret: Secret): { name: string; uid: string } {
  const annotations = secret.metadata?.annotations ?? {};
  return {
    name: annotations[SERVICE_ACCOUNT_NAME_KEY] ?? '',
    uid: annotations[SERVICE_ACCOUNT_UID_KEY] ?? '',
  };
}

/**
 * Whether `secret` is a token secret of the service account: its type, the name annotation, and the
 * UID annotation when both it and the account's UID are known.
 */
export function isServiceAccountToken(secret: Secret, account: { name: string; uid?: string }): boolean {
  if (secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE) return false;
  const named = tokenSecretAccount(secret);
  if (named.name !== account.name) return false;
  return !named.uid || !account.uid || named.uid === account.uid;
}

/** What a token secret still lacks: the CA (when there is one to give), a token, the namespace. */
export interface TokenSecretNeeds {
  ca: boolean;
  token: boolean;
  namespace: boolean;
}

/** The data a token secret lacks, given the CA bundle the controller publishes (empty for none). */
export function tokenSecretNeeds(secret: Secret, rootCA: string): TokenSecretNeeds {
  const data = secret.data ?? {};
  return {
    ca: rootCA !== '' && data[ROOT_CA_KEY] !== base64(rootCA),
    token: !data[TOKEN_KEY],
    namespace: !data[NAMESPACE_KEY],
  };
}

/** Whether anything is missing. */
export function needsUpdate(needs: TokenSecretNeeds): boolean {
  return needs.ca || needs.token || needs.namespace;
}

/**
 * The secret filled in: what `needs` says is missing (`token` being the signed token), and the
 * annotations naming the service account and its UID.
 */
export function populatedTokenSecret(
  secret: Secret,
  account: ServiceAccount,
  needs: TokenSecretNeeds,
  fill: { rootCA: string; token: string },
): Secret {
  const data = { ...(secret.data ?? {}) };
  if (needs.ca) data[ROOT_CA_KEY] = base64(fill.rootCA);
  if (needs.namespace) data[NAMESPACE_KEY] = base64(secret.metadata?.namespace ?? '');
  if (needs.token) data[TOKEN_KEY] = base64(fill.token);
  return {
    ...secret,
    metadata: {
      ...secret.metadata,
      annotations: {
        ...(secret.metadata?.annotations ?? {}),
        [SERVICE_ACCOUNT_NAME_KEY]: account.metadata?.name ?? '',
        [SERVICE_ACCOUNT_UID_KEY]: account.metadata?.uid ?? '',
      },
    },
    data,
  };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
