import type { Authorizer } from '../authz/authorizer';
import type { VirtualHandler } from '../registry/custom-handlers';
import {
  accessReviewSpec,
  answerAccessReview,
  authorizationGroup,
  reviewAttributes,
  specUser,
  validateReviewMetadata,
  validateSubjectAccessReviewSpec,
} from './access-review';
import { invalidReview, reviewBody } from './review-object';

/** POST subjectaccessreviews: may the user, groups, uid and extra of the spec do what its attributes say? */
export function subjectAccessReviewHandler(authorizer: Authorizer): VirtualHandler {
  return async (decl, request) => {
    const review = reviewBody(request.body, decl.kind, request.scope.apiVersion);
    const spec = accessReviewSpec(review);
    const errors = [
      ...validateReviewMetadata(review, 'must be empty'),
      ...validateSubjectAccessReviewSpec(spec),
    ];
    if (errors.length) throw invalidReview('SubjectAccessReview', authorizationGroup, '', errors);
    return {
      code: 201,
      object: await answerAccessReview(authorizer, review, reviewAttributes(specUser(spec), spec)),
    };
  };
}
