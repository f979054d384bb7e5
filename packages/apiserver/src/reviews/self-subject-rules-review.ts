import type { Authorizer } from '../authz/authorizer';
import { statusErrors } from '../errors/status-error';
import type { VirtualHandler } from '../registry/custom-handlers';
import { reviewBody } from './review-object';

/**
 * POST selfsubjectrulesreviews: what the requesting user may do in spec.namespace
 * (`kubectl auth can-i --list`). Authorizers that cannot list their rules make the answer incomplete.
 */
export function selfSubjectRulesReviewHandler(authorizer: Authorizer): VirtualHandler {
  return async (decl, request) => {
    const review = reviewBody(request.body, decl.kind, request.scope.apiVersion);
    if (!request.user) throw statusErrors.badRequest('no user present on request');
    const namespace = (review.spec as { namespace?: string } | undefined)?.namespace ?? '';
    if (!namespace) throw statusErrors.badRequest('no namespace on request');
    const rules = authorizer.rulesFor
      ? await authorizer.rulesFor(request.user, namespace)
      : { resourceRules: [], nonResourceRules: [], incomplete: true };
    const status: Record<string, unknown> = {
      resourceRules: rules.resourceRules,
      nonResourceRules: rules.nonResourceRules,
      incomplete: rules.incomplete,
    };
    if (rules.evaluationError) status.evaluationError = rules.evaluationError;
    return { code: 201, object: { ...review, status } };
  };
}
