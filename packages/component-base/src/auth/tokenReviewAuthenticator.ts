import { createHash } from 'node:crypto';
import { TokenReviewKind } from '@orch/api';
import { clientFor, type RestClient } from '@orch/client';
import type { UserInfo } from '../server/delegatedAuth';
import type { RequestAuthenticator } from './RequestAuthenticator';
import { TtlCache } from './TtlCache';

/** The bearer token of a request, if it carries one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return m ? m[1] : undefined;
}

export interface TokenReviewOptions {
  /** --authentication-token-webhook-cache-ttl, ms. */
  cacheTtlMs: number;
  audiences?: string[];
  clock?: () => number;
}

/**
 * Bearer tokens checked with a TokenReview against the API server; answers (authenticated or not)
 * are cached for the TTL, keyed by the token's hash. A review that fails is not cached and the
 * request is refused.
 */
export function tokenReviewAuthenticator(
  rest: RestClient,
  options: TokenReviewOptions,
): RequestAuthenticator {
  const reviews = clientFor(rest, TokenReviewKind);
  const cache = new TtlCache<UserInfo | Error>(4096, options.clock);
  return async (req) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      return undefined;
    }
    const key = createHash('sha256').update(token).digest('hex');
    const cached = cache.get(key);
    if (cached) {
      return cached;
    }
    let answer: UserInfo | Error;
    try {
      const review = await reviews.create({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        metadata: {},
        spec: { token, ...(options.audiences ? { audiences: options.audiences } : {}) },
      });
      const status = review.status ?? {};
      if (status.authenticated) {
        const user = status.user ?? {};
        answer = {
          name: user.username ?? '',
          groups: user.groups ?? [],
          ...(user.uid ? { uid: user.uid } : {}),
          ...(user.extra ? { extra: user.extra } : {}),
        };
      } else {
        answer = new Error(status.error || 'token not authenticated');
      }
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    cache.set(key, answer, options.cacheTtlMs);
    return answer;
  };
}
