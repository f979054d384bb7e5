import { LocalSubjectAccessReviewKind } from './local-subject-access-review';
import { SelfSubjectAccessReviewKind } from './self-subject-access-review';
import { SelfSubjectRulesReviewKind } from './self-subject-rules-review';
import { SubjectAccessReviewKind } from './subject-access-review';

export * from './access-review-attributes';
export * from './subject-access-review-status';
export * from './subject-access-review';
export * from './self-subject-access-review';
export * from './local-subject-access-review';
export * from './self-subject-rules-review';

export const authorizationKinds = [
  SubjectAccessReviewKind,
  SelfSubjectAccessReviewKind,
  LocalSubjectAccessReviewKind,
  SelfSubjectRulesReviewKind,
];
