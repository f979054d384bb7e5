import { authenticationDetail } from '../authn/authentication-error';
import { withAuthenticatedGroup } from '../authn/authenticator';
import { intersectAudiences, type TokenAuthenticator, type TokenResult } from '../authn/token-authenticator';
import { statusErrors } from '../errors/status-error';
import type { VirtualHandler } from '../registry/custom-handlers';
import { reviewBody } from './review-object';

/**
 * POST tokenreviews: authenticates spec.token with the server's token authenticators for
 * spec.audiences (the server's own audiences when empty).
 */
export function tokenReviewHandler(
  tokens: TokenAuthenticator,
  apiAudiences: readonly string[] = [],
): VirtualHandler {
  return async (decl, request) => {
    const review = reviewBody(request.body, decl.kind, request.scope.apiVersion);
    const spec = (review.spec ?? {}) as { token?: string; audiences?: string[] };
    if (!spec.token) throw statusErrors.badRequest('token is required for TokenReview in authentication');
    const audiences = spec.audiences?.length ? spec.audiences : [...apiAudiences];
    const status: Record<string, unknown> = { authenticated: false, user: {} };
    let result: TokenResult | undefined;
    try {
      result = await tokens.authenticateToken(spec.token, audiences.length ? audiences : undefined);
    } catch (e) {
      status.error = authenticationDetail(e);
    }
    if (result) {
      if (audiences.length && !intersectAudiences(audiences, result.audiences).length) {
        throw statusErrors.internal('error validating audience');
      }
      const user = withAuthenticatedGroup(result.user);
      status.authenticated = true;
      status.user = {
        username: user.username,
        ...(user.uid ? { uid: user.uid } : {}),
        groups: user.groups,
        ...(user.extra ? { extra: user.extra } : {}),
      };
      status.audiences = result.audiences;
    }
    return { code: 201, object: { ...review, status } };
  };
}
