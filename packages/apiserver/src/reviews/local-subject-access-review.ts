import { fieldErrors } from '@orch/api';
import type { Authorizer } from '../authz/authorizer';
import { statusErrors } from '../errors/status-error';
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

/** POST namespaces/<ns>/localsubjectaccessreviews: a SubjectAccessReview confined to the namespace of the path. */
export function localSubjectAccessReviewHandler(authorizer: Authorizer): VirtualHandler {
  return async (decl, request) => {
    const namespace = request.scope.namespace;
    if (!namespace) throw statusErrors.badRequest(`namespace is required on this type: ${namespace}`);
    const review = reviewBody(request.body, decl.kind, request.scope.apiVersion);
    const meta = review.metadata;
    if (meta.namespace && meta.namespace !== namespace) {
      throw statusErrors.badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    }
    meta.namespace = namespace;
    const spec = accessReviewSpec(review);
    const errors = [
      ...validateReviewMetadata(review, 'must be empty except for namespace', ['namespace']),
      ...validateSubjectAccessReviewSpec(spec),
    ];
    if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== namespace) {
      errors.push(
        fieldErrors.invalid(
          'spec.resourceAttributes.namespace',
          spec.resourceAttributes.namespace ?? '',
          'must match metadata.namespace',
        ),
      );
    }
    if (spec.nonResourceAttributes) {
      errors.push(
        fieldErrors.invalid(
          'spec.nonResourceAttributes',
          spec.nonResourceAttributes,
          'disallowed on this kind of request',
        ),
      );
    }
    if (errors.length) throw invalidReview('LocalSubjectAccessReview', authorizationGroup, '', errors);
    return {
      code: 201,
      object: await answerAccessReview(authorizer, review, reviewAttributes(specUser(spec), spec)),
    };
  };
}
