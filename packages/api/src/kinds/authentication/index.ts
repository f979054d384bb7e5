import { TokenRequestKind } from './token-request';
import { TokenReviewKind } from './token-review';

export * from './user-info';
export * from './token-review';
export * from './token-request';

export const authenticationKinds = [TokenReviewKind, TokenRequestKind];
