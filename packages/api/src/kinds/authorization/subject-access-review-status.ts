import type { Static } from '@sinclair/typebox';
import { bool, required, str, struct } from '../../schema/fields';

export const SubjectAccessReviewStatusSchema = struct(
  'io.k8s.api.authorization.v1.SubjectAccessReviewStatus',
  {
    allowed: required(bool({ proto: 1, description: 'True when the action is allowed.' })),
    denied: bool({ proto: 4, description: 'True when the action is explicitly denied.' }),
    reason: str({ proto: 2, description: 'Why the action was allowed or denied.' }),
    evaluationError: str({ proto: 3, description: 'An error met while checking authorization.' }),
  },
);
export type SubjectAccessReviewStatus = Static<typeof SubjectAccessReviewStatusSchema>;
