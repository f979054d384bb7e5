import type { RequestHeaderConfig } from '@orch/component-base';
import { UnionAuthenticator, type Authenticator } from './authenticator';
import { RequestHeaderAuthenticator } from './request-header-authenticator';
import { ServiceAccountTokenAuthenticator, type ServiceAccountObjectGetter } from './service-account-token';
import { StaticTokenAuthenticator } from './static-token-file';
import { BearerTokenAuthenticator } from './token-authenticator';
import { X509Authenticator } from './x509-authenticator';

/** The authentication flags of orch-apiserver. */
export interface AuthenticationOptions {
  /** `--client-ca-file` contents. */
  clientCA?: string | Buffer;
  /** `--token-auth-file`. */
  tokenAuthFile?: string;
  /** `--service-account-key-file` (repeatable). */
  serviceAccountKeyFiles?: readonly string[];
  /** `--service-account-issuer` (repeatable; the first issues tokens). */
  serviceAccountIssuers?: readonly string[];
  /** `--api-audiences`; defaults to the service-account issuers. */
  apiAudiences?: readonly string[];
  /** `--service-account-lookup` (default true): secret-based tokens are checked against their secret. */
  serviceAccountLookup?: boolean;
  /** The `--requestheader-*` flags, when `--requestheader-client-ca-file` is given. */
  requestHeaderAuth?: RequestHeaderConfig;
}

export interface BuiltAuthenticator {
  /** The request authenticator: client certificates, then bearer tokens. */
  authenticator: Authenticator;
  /** The bearer-token part alone (TokenReview). */
  tokens: BearerTokenAuthenticator;
  apiAudiences: string[];
}

/**
 * The authenticator chain of orch-apiserver from its flags (kube-apiserver's order: request header,
 * x509, token file, service accounts).
 */
export function buildAuthenticator(
  options: AuthenticationOptions,
  getter?: ServiceAccountObjectGetter,
): BuiltAuthenticator {
  const issuers = [...(options.serviceAccountIssuers ?? [])];
  const apiAudiences = [...(options.apiAudiences?.length ? options.apiAudiences : issuers)];
  const tokens = new BearerTokenAuthenticator([
    ...(options.tokenAuthFile
      ? [StaticTokenAuthenticator.fromFile(options.tokenAuthFile, apiAudiences)]
      : []),
    ...(options.serviceAccountKeyFiles?.length
      ? [
          ServiceAccountTokenAuthenticator.fromFiles(options.serviceAccountKeyFiles, issuers, apiAudiences, {
            getter,
            lookupLegacy: options.serviceAccountLookup,
          }),
        ]
      : []),
  ]);
  const authenticators: Authenticator[] = [];
  if (options.requestHeaderAuth)
    authenticators.push(new RequestHeaderAuthenticator(options.requestHeaderAuth));
  if (options.clientCA) authenticators.push(new X509Authenticator(options.clientCA));
  authenticators.push(tokens);
  return { authenticator: new UnionAuthenticator(authenticators), tokens, apiAudiences };
}
