import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { buildConfigFromFlags, RestClient } from '@orch/client';
import { errorMessage } from '../errorMessage';
import type { Logger } from '../logs/logger';
import type { ParsedFlags } from '../options/parsedFlags';
import {
  ANONYMOUS_USER,
  certificateOrAnonymous,
  denyAll,
  isAlwaysAllowed,
  type Authenticate,
  type Authorize,
  type UserInfo,
} from '../server/delegatedAuth';
import { parseCABundle } from './clientCertificates';
import { lookupAuthenticationConfig, type AuthenticationLookup } from './authenticationLookup';
import type { RequestAuthenticator } from './RequestAuthenticator';
import { requestHeaderAuthenticator } from './requestHeaderAuthenticator';
import { subjectAccessReviewAuthorizer } from './subjectAccessReviewAuthorizer';
import { bearerToken, tokenReviewAuthenticator } from './tokenReviewAuthenticator';
import { x509Authenticator } from './x509Authenticator';

/** The hooks runDaemon takes (DaemonSpec.authenticate / authorize). */
export interface DelegatedAuthHooks {
  authenticate: Authenticate;
  authorize: Authorize;
  /** Closes the review clients. */
  close(): void;
}

/** Paths Kubernetes always allows besides /healthz while the flag keeps its default (as runDaemon). */
const DEFAULT_HEALTH_PATHS = ['/readyz', '/livez'];

function clientFromKubeconfig(path: string): RestClient {
  const { config } = buildConfigFromFlags({ kubeconfig: path });
  return new RestClient({
    ...config,
    qps: 200,
    burst: 400,
    timeoutMs: 10_000,
    contentType: 'application/json',
  });
}

function optional(flags: ParsedFlags, name: string): string {
  return flags.has(name) ? flags.string(name) : '';
}

/**
 * Delegated authentication and authorization from the daemon flags, as Kubernetes' delegating
 * authenticator and authorizer:
 *
 * - authentication, in order: request-header (front proxy) client certificates, client certificates
 *   of --client-ca-file (or of the `client-ca-file` published in configmap
 *   orch-system/extension-apiserver-authentication unless --authentication-skip-lookup; a failed
 *   lookup is fatal unless --authentication-tolerate-lookup-failure), bearer tokens through a
 *   TokenReview with --authentication-kubeconfig (answers cached for
 *   --authentication-token-webhook-cache-ttl). Authenticated users get `system:authenticated`.
 *   Requests without credentials are anonymous on the always-allowed paths and refused (401)
 *   elsewhere; without --authentication-kubeconfig bearer tokens are treated as anonymous.
 * - authorization: `system:masters` always; otherwise a SubjectAccessReview with
 *   --authorization-kubeconfig (cached for the authorized / unauthorized TTLs); without it,
 *   everything outside --authorization-always-allow-paths is forbidden.
 *
 * Client certificates are only seen when the server asks for them in the TLS handshake, which the
 * secure server does when --client-ca-file is set.
 */
export async function delegatedAuthFromFlags(
  flags: ParsedFlags,
  logger?: Logger,
): Promise<DelegatedAuthHooks> {
  const authnKubeconfig = optional(flags, 'authentication-kubeconfig');
  const authzKubeconfig = optional(flags, 'authorization-kubeconfig');
  const authnClient = authnKubeconfig ? clientFromKubeconfig(authnKubeconfig) : undefined;
  // one client (one connection pool) when both flags name the same kubeconfig, as they usually do
  const authzClient =
    authzKubeconfig === authnKubeconfig
      ? authnClient
      : authzKubeconfig
        ? clientFromKubeconfig(authzKubeconfig)
        : undefined;
  const close = (): void => {
    authnClient?.close();
    if (authzClient !== authnClient) authzClient?.close();
  };

  try {
    const clientCAFile = optional(flags, 'client-ca-file');
    const requestHeaderCAFile = optional(flags, 'requestheader-client-ca-file');
    let lookup: AuthenticationLookup = {};
    const skipLookup = flags.has('authentication-skip-lookup') && flags.bool('authentication-skip-lookup');
    if (authnClient && !skipLookup && (clientCAFile === '' || requestHeaderCAFile === '')) {
      try {
        lookup = await lookupAuthenticationConfig(authnClient);
      } catch (err) {
        const tolerate =
          flags.has('authentication-tolerate-lookup-failure') &&
          flags.bool('authentication-tolerate-lookup-failure');
        const message = `unable to load configmap based request-header-client-ca-file: ${errorMessage(err)}`;
        if (!tolerate) {
          throw new Error(message, { cause: err });
        }
        logger?.warning(
          `${message}; continuing without authentication configuration: all requests may be treated as anonymous`,
        );
      }
    }

    const chain: RequestAuthenticator[] = [];
    const requestHeaderCA = requestHeaderCAFile
      ? readFileSync(requestHeaderCAFile, 'utf8')
      : lookup.requestHeaderCA;
    if (requestHeaderCA) {
      const fromFlags = requestHeaderCAFile !== '';
      const list = (flag: string, looked: string[] | undefined): string[] =>
        fromFlags || looked === undefined ? (flags.has(flag) ? flags.strings(flag) : []) : looked;
      const config = {
        ca: parseCABundle(requestHeaderCA),
        allowedNames: list('requestheader-allowed-names', lookup.requestHeaderAllowedNames),
        usernameHeaders: list('requestheader-username-headers', lookup.requestHeaderUsernameHeaders),
        groupHeaders: list('requestheader-group-headers', lookup.requestHeaderGroupHeaders),
        extraHeaderPrefixes: list(
          'requestheader-extra-headers-prefix',
          lookup.requestHeaderExtraHeaderPrefixes,
        ),
      };
      chain.push(requestHeaderAuthenticator(() => config));
    }
    const clientCA = clientCAFile ? readFileSync(clientCAFile, 'utf8') : lookup.clientCA;
    if (clientCA) {
      const roots = parseCABundle(clientCA);
      chain.push(x509Authenticator(() => roots));
    }
    if (authnClient) {
      chain.push(
        tokenReviewAuthenticator(authnClient, {
          cacheTtlMs: flags.duration('authentication-token-webhook-cache-ttl'),
        }),
      );
    }

    const allow = flags.has('authorization-always-allow-paths')
      ? flags.strings('authorization-always-allow-paths')
      : ['/healthz'];
    const anonymousPaths = flags.changed('authorization-always-allow-paths')
      ? allow
      : [...allow, ...DEFAULT_HEALTH_PATHS];

    const authenticate: Authenticate = async (req: IncomingMessage) => {
      for (const authenticator of chain) {
        const result = await authenticator(req);
        if (result instanceof Error) {
          logger?.v(4).info(`Unable to authenticate the request: ${result.message}`);
          return null;
        }
        if (result) {
          return withAuthenticatedGroup(result);
        }
      }
      const path = new URL(req.url ?? '/', 'https://localhost').pathname;
      const hasToken = bearerToken(req.headers.authorization) !== undefined;
      if (isAlwaysAllowed(path, anonymousPaths) || (hasToken && !authnClient)) {
        return { ...ANONYMOUS_USER, groups: [...ANONYMOUS_USER.groups] };
      }
      return null;
    };

    const authorize: Authorize = authzClient
      ? subjectAccessReviewAuthorizer(authzClient, {
          allowedTtlMs: flags.duration('authorization-webhook-cache-authorized-ttl'),
          deniedTtlMs: flags.duration('authorization-webhook-cache-unauthorized-ttl'),
        })
      : denyAll;
    return { authenticate, authorize, close };
  } catch (err) {
    close();
    throw err;
  }
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  return user.groups.includes('system:authenticated')
    ? user
    : { ...user, groups: [...user.groups, 'system:authenticated'] };
}

/**
 * Hooks to hand to runDaemon before the flags are parsed: they behave as the defaults (client
 * certificate or anonymous; forbid) until `init(flags, logger)` — called first thing in the
 * daemon's run — builds the delegated ones.
 */
export class DeferredDelegatedAuth {
  private hooks: DelegatedAuthHooks | undefined;

  readonly authenticate: Authenticate = (req) => (this.hooks?.authenticate ?? certificateOrAnonymous)(req);
  readonly authorize: Authorize = (user, path, verb) => (this.hooks?.authorize ?? denyAll)(user, path, verb);

  async init(flags: ParsedFlags, logger?: Logger): Promise<void> {
    this.hooks = await delegatedAuthFromFlags(flags, logger);
  }

  close(): void {
    this.hooks?.close();
  }
}
