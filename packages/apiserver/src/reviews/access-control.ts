import type { APIServer } from '../server/apiserver';
import {
  publishAuthenticationConfigMap,
  requestHeaderSettings,
  type AuthenticationInfo,
} from '../authn/authentication-configmap';
import { buildAuthenticator, type AuthenticationOptions } from '../authn/build-authenticator';
import type { Authenticator } from '../authn/authenticator';
import { serviceAccountObjectGetter } from '../authn/service-account-getter';
import type { TokenAuthenticator } from '../authn/token-authenticator';
import { buildAuthorizer, parseAuthorizationModes } from '../authz/authorization-modes';
import type { Authorizer } from '../authz/authorizer';
import { ensureBootstrapPolicy } from '../authz/bootstrap-policy';
import { rbacStores } from '../authz/rbac-objects';
import { installReviews } from './install-reviews';

export interface AccessControlOptions extends AuthenticationOptions {
  /** `--anonymous-auth` (default true). */
  anonymousAuth?: boolean;
  /** `--authorization-mode` (default AlwaysAllow). */
  authorizationMode?: string | readonly string[];
  /** `--service-account-signing-key-file` contents; serves serviceaccounts/token when set. */
  serviceAccountSigningKey?: string;
  /** `--service-account-max-token-expiration` in seconds. */
  maxTokenExpirationSeconds?: number;
  /**
   * The `--requestheader-*` flags: front proxies authenticate by them, and they are published in
   * extension-apiserver-authentication.
   */
  requestHeader?: Omit<AuthenticationInfo, 'clientCA'>;
}

export interface AccessControl {
  authenticator: Authenticator;
  tokens: TokenAuthenticator;
  authorizer: Authorizer;
  apiAudiences: string[];
  /** Stops the RBAC policy cache. */
  close(): void;
}

/**
 * Turns on authentication and authorization of a constructed server from its flags: the
 * authenticator chain, the authorizer chain (with the RBAC policy cache and bootstrap policy when
 * RBAC is on), the review APIs and serviceaccounts/token, and the extension-apiserver-authentication
 * ConfigMap. Call it before `start()` so that the client CA is asked for in the TLS handshake.
 */
export async function enableAccessControl(
  server: APIServer,
  options: AccessControlOptions,
): Promise<AccessControl> {
  const modes = parseAuthorizationModes(options.authorizationMode ?? 'AlwaysAllow');
  const requestHeaderAuth = requestHeaderSettings(options.requestHeader ?? {});
  const authn = buildAuthenticator({ ...options, requestHeaderAuth }, serviceAccountObjectGetter(server));
  const rbac = modes.includes('RBAC') ? rbacStores(server) : undefined;
  if (rbac) await ensureBootstrapPolicy(rbac);
  const authz = await buildAuthorizer(modes, rbac);
  const config = server.config;
  // clients are asked for certificates of either authority (client CA, request-header CA)
  const authorities = [options.clientCA, options.requestHeader?.requestHeaderCA].filter((ca) => ca);
  if (authorities.length) config.clientCA = authorities.map((ca) => ca!.toString()).join('\n');
  config.authenticator = authn.authenticator;
  config.anonymousAuth = options.anonymousAuth ?? true;
  config.authorizer = authz.authorizer;
  const issuer = options.serviceAccountIssuers?.[0];
  installReviews(server, {
    authorizer: authz.authorizer,
    tokens: authn.tokens,
    apiAudiences: authn.apiAudiences,
    ...(options.serviceAccountSigningKey && issuer
      ? {
          tokenRequest: {
            signingKey: options.serviceAccountSigningKey,
            issuer,
            apiAudiences: authn.apiAudiences,
            ...(options.maxTokenExpirationSeconds
              ? { maxTokenExpirationSeconds: options.maxTokenExpirationSeconds }
              : {}),
          },
        }
      : {}),
  });
  if (options.clientCA || options.requestHeader?.requestHeaderCA) {
    await publishAuthenticationConfigMap(server, {
      ...(options.requestHeader ?? {}),
      ...(options.clientCA ? { clientCA: options.clientCA.toString() } : {}),
    });
  }
  return {
    authenticator: authn.authenticator,
    tokens: authn.tokens,
    authorizer: authz.authorizer,
    apiAudiences: authn.apiAudiences,
    close: () => authz.close(),
  };
}
