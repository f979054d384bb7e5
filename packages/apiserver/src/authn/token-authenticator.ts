import type { IncomingMessage } from 'node:http';
import { AuthenticationError, authenticationDetail } from './authentication-error';
import type { Authenticator, UserInfo } from './authenticator';

/** A token's owner and the audiences (of those asked for) the token is valid for. */
export interface TokenResult {
  user: UserInfo;
  audiences: string[];
}

/**
 * One kind of bearer token. Returns undefined for tokens of another kind; throws an
 * AuthenticationError for a token of its kind that is invalid.
 */
export interface TokenAuthenticator {
  /** `audiences`: the audiences the caller needs; the server's own (`--api-audiences`) when omitted. */
  authenticateToken(token: string, audiences?: string[]): Promise<TokenResult | undefined>;
}

/** The intersection of two audience lists, in the order of `a`. */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1] || undefined;
}

/**
 * `Authorization: Bearer` authentication over the token authenticators in order. A bearer token no
 * authenticator accepts is a 401 ("invalid bearer token"), never anonymous.
 */
export class BearerTokenAuthenticator implements Authenticator, TokenAuthenticator {
  constructor(private readonly tokens: readonly TokenAuthenticator[]) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const result = await this.authenticateToken(token);
    return result?.user;
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<TokenResult | undefined> {
    const failures: AuthenticationError[] = [];
    for (const t of this.tokens) {
      try {
        const result = await t.authenticateToken(token, audiences);
        if (result) return result;
      } catch (e) {
        failures.push(
          e instanceof AuthenticationError ? e : new AuthenticationError(authenticationDetail(e)),
        );
      }
    }
    if (failures.length) throw AuthenticationError.aggregate(failures);
    throw new AuthenticationError('invalid bearer token');
  }
}
