import { TokenRequestKind } from './token-request';
import { SelfSubjectReviewKind } from './self-subject-review';
import { TokenReviewKind } from './token-review';

export * from './user-info';
export * from './token-review';
export * from './token-request';
export * from './self-subject-review';

export const authenticationKinds = [TokenReviewKind, TokenRequestKind, SelfSubjectReviewKind];
