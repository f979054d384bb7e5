import { SubjectAccessReviewKind } from '@orch/api';
import { clientFor, type RestClient } from '@orch/client';
import type { AuthorizationDecision, Authorize } from '../server/delegatedAuth';
import { TtlCache } from './TtlCache';

export interface SubjectAccessReviewOptions {
  /** --authorization-webhook-cache-authorized-ttl, ms. */
  allowedTtlMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl, ms. */
  deniedTtlMs: number;
  /** Groups allowed everything without asking (Kubernetes: system:masters). */
  alwaysAllowGroups?: string[];
  clock?: () => number;
}

/**
 * Non-resource requests authorized with a SubjectAccessReview against the API server; allowed and
 * denied answers are cached for their own TTLs. A review that fails denies (uncached).
 */
export function subjectAccessReviewAuthorizer(
  rest: RestClient,
  options: SubjectAccessReviewOptions,
): Authorize {
  const reviews = clientFor(rest, SubjectAccessReviewKind);
  const cache = new TtlCache<AuthorizationDecision>(4096, options.clock);
  const privileged = options.alwaysAllowGroups ?? ['system:masters'];
  return async (user, path, verb) => {
    if (user.groups.some((g) => privileged.includes(g))) {
      return { allowed: true };
    }
    const key = JSON.stringify([user.name, user.uid ?? '', user.groups, user.extra ?? {}, path, verb]);
    const cached = cache.get(key);
    if (cached) {
      return cached;
    }
    let decision: AuthorizationDecision;
    try {
      const review = await reviews.create({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        metadata: {},
        spec: {
          user: user.name,
          groups: user.groups,
          ...(user.uid ? { uid: user.uid } : {}),
          ...(user.extra ? { extra: user.extra } : {}),
          nonResourceAttributes: { path, verb },
        },
      });
      const status = review.status ?? { allowed: false };
      decision = { allowed: status.allowed === true, ...(status.reason ? { reason: status.reason } : {}) };
    } catch (err) {
      return {
        allowed: false,
        reason: `error contacting the authorization server: ${(err as Error).message}`,
      };
    }
    cache.set(key, decision, decision.allowed ? options.allowedTtlMs : options.deniedTtlMs);
    return decision;
  };
}
