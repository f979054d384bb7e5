import { fieldErrors, type FieldError } from '@orch/api';
import type { UserInfo } from '../authn/authenticator';
import type { AuthorizationAttributes, Authorizer } from '../authz/authorizer';
import type { ApiObject } from '../registry/object';
import { metadataEmpty } from './review-object';

export const authorizationGroup = 'authorization.k8s.io';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** The spec of SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview. */
export interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** The spec of a review body ({} when absent). */
export function accessReviewSpec(review: ApiObject): AccessReviewSpec {
  const spec = review.spec;
  return spec && typeof spec === 'object' && !Array.isArray(spec) ? (spec as AccessReviewSpec) : {};
}

/** Exactly one of resourceAttributes and nonResourceAttributes (Kubernetes' ValidateSelfSubjectAccessReviewSpec). */
export function validateAttributesChoice(spec: AccessReviewSpec): FieldError[] {
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    return [
      fieldErrors.invalid(
        'spec.nonResourceAttributes',
        spec.nonResourceAttributes,
        'cannot be specified in combination with resourceAttributes',
      ),
    ];
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    return [
      fieldErrors.invalid(
        'spec.resourceAttributes',
        'null',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    ];
  }
  return [];
}

/** Kubernetes' ValidateSubjectAccessReviewSpec: the attributes choice and a user or group to check. */
export function validateSubjectAccessReviewSpec(spec: AccessReviewSpec): FieldError[] {
  const errors = validateAttributesChoice(spec);
  if (!spec.user && !spec.groups?.length)
    errors.push(
      fieldErrors.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'),
    );
  return errors;
}

/** metadata must be empty (apart from `allowed` keys). */
export function validateReviewMetadata(
  review: ApiObject,
  detail: string,
  allowed: readonly string[] = [],
): FieldError[] {
  return metadataEmpty(review.metadata, allowed)
    ? []
    : [fieldErrors.invalid('metadata', review.metadata, detail)];
}

/** The user a SubjectAccessReview spec names. */
export function specUser(spec: AccessReviewSpec): UserInfo {
  const user: UserInfo = { username: spec.user ?? '', groups: [...(spec.groups ?? [])] };
  if (spec.uid) user.uid = spec.uid;
  if (spec.extra) user.extra = spec.extra;
  return user;
}

/** The authorizer attributes of a review for `user` (Kubernetes' ResourceAttributesFrom / NonResourceAttributesFrom). */
export function reviewAttributes(user: UserInfo, spec: AccessReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      isResourceRequest: true,
      path: '',
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return {
    user,
    verb: n.verb ?? '',
    isResourceRequest: false,
    path: n.path ?? '',
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** Asks the authorizer and returns the review with its status filled (Kubernetes' SubjectAccessReviewStatus). */
export async function answerAccessReview(
  authorizer: Authorizer,
  review: ApiObject,
  attributes: AuthorizationAttributes,
): Promise<ApiObject> {
  const status: { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string } = {
    allowed: false,
  };
  try {
    const result = await authorizer.authorize(attributes);
    status.allowed = result.decision === 'Allow';
    if (result.decision === 'Deny') status.denied = true;
    if (result.reason) status.reason = result.reason;
  } catch (e) {
    status.evaluationError = e instanceof Error ? e.message : String(e);
  }
  return { ...review, status };
}
