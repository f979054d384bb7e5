import type { IncomingMessage } from 'node:http';
import { AuthenticationError, authenticationDetail } from './authentication-error';

/** Who made a request (Kubernetes' user.Info). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/**
 * One way of establishing who made a request. Returns undefined when the request does not carry this
 * kind of credential; throws a 401 StatusError when it carries one that is invalid.
 */
export interface Authenticator {
  authenticate(req: IncomingMessage): Promise<UserInfo | undefined>;
}

/** The anonymous user of Kubernetes. */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/**
 * Tries each authenticator in order; the first that recognizes the request decides. A failing
 * credential does not stop the others (a bad client certificate next to a valid token still
 * authenticates); when none succeeds, the failures are thrown together as one 401.
 */
export class UnionAuthenticator implements Authenticator {
  constructor(private readonly authenticators: readonly Authenticator[]) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const failures: AuthenticationError[] = [];
    for (const a of this.authenticators) {
      try {
        const user = await a.authenticate(req);
        if (user) return withAuthenticatedGroup(user);
      } catch (e) {
        failures.push(
          e instanceof AuthenticationError ? e : new AuthenticationError(authenticationDetail(e)),
        );
      }
    }
    if (failures.length) throw AuthenticationError.aggregate(failures);
    return undefined;
  }
}

/** Every authenticated user is in system:authenticated, as Kubernetes adds it. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === anonymousUser.username || user.groups.includes('system:authenticated')) return user;
  return { ...user, groups: [...user.groups, 'system:authenticated'] };
}
