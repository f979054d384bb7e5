import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** An authenticated (or anonymous) user. */
export interface UserInfo {
  name: string;
  groups: string[];
  uid?: string;
  /** Extra attributes (from a token review or request headers). */
  extra?: Record<string, string[]>;
}

/** Identifies a request's user; null means the credentials were rejected (401). */
export type Authenticate = (req: IncomingMessage) => UserInfo | null | Promise<UserInfo | null>;

/** An authorization answer. */
export interface AuthorizationDecision {
  allowed: boolean;
  reason?: string;
}

/** Decides whether `user` may use `verb` (the lower-case HTTP method) on a non-resource `path`. */
export type Authorize = (
  user: UserInfo,
  path: string,
  verb: string,
) => AuthorizationDecision | Promise<AuthorizationDecision>;

export const ANONYMOUS_USER: Readonly<UserInfo> = {
  name: 'system:anonymous',
  groups: ['system:unauthenticated'],
};

/**
 * The authenticator of daemons without delegated authentication: a client certificate verified by
 * --client-ca-file authenticates as its common name; everything else is anonymous. Daemons with
 * --authentication-kubeconfig use the hooks of `delegatedAuthFromFlags` (auth/) instead.
 */
export const certificateOrAnonymous: Authenticate = (req) => {
  const socket = req.socket as TLSSocket;
  if (socket.authorized && typeof socket.getPeerCertificate === 'function') {
    const peer = socket.getPeerCertificate();
    const cn = peer?.subject?.CN;
    const org = peer?.subject?.O;
    if (typeof cn === 'string' && cn !== '') {
      const groups = org === undefined ? [] : Array.isArray(org) ? org : [org];
      return { name: cn, groups: [...groups, 'system:authenticated'] };
    }
  }
  return { ...ANONYMOUS_USER, groups: [...ANONYMOUS_USER.groups] };
};

/** The authorizer used without --authorization-kubeconfig: everything not always-allowed is forbidden. */
export const denyAll: Authorize = () => ({
  allowed: false,
  reason: 'no --authorization-kubeconfig is configured',
});

/** True when `path` is on the always-allow list (entries ending in `*` match a prefix). */
export function isAlwaysAllowed(path: string, allowPaths: readonly string[]): boolean {
  return allowPaths.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p));
}
