import type { Authorizer } from '../authz/authorizer';
import { statusErrors } from '../errors/status-error';
import type { VirtualHandler } from '../registry/custom-handlers';
import {
  accessReviewSpec,
  answerAccessReview,
  authorizationGroup,
  reviewAttributes,
  validateAttributesChoice,
  validateReviewMetadata,
} from './access-review';
import { invalidReview, reviewBody } from './review-object';

/** POST selfsubjectaccessreviews: may the requesting user do what the attributes say (`kubectl auth can-i`)? */
export function selfSubjectAccessReviewHandler(authorizer: Authorizer): VirtualHandler {
  return async (decl, request) => {
    const review = reviewBody(request.body, decl.kind, request.scope.apiVersion);
    const spec = accessReviewSpec(review);
    const errors = [...validateReviewMetadata(review, 'must be empty'), ...validateAttributesChoice(spec)];
    if (errors.length) throw invalidReview('SelfSubjectAccessReview', authorizationGroup, '', errors);
    if (!request.user) throw statusErrors.badRequest('no user present on request');
    return {
      code: 201,
      object: await answerAccessReview(authorizer, review, reviewAttributes(request.user, spec)),
    };
  };
}
