import type { Static } from '@sinclair/typebox';
import { bool, field, list, required, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';

export const ResourceRuleSchema = struct('io.k8s.api.authorization.v1.ResourceRule', {
  verbs: required(list(str(), { proto: 1, description: "Allowed verbs; '*' means all." })),
  apiGroups: list(str(), { proto: 2, description: "API groups of the resources; '*' means all." }),
  resources: list(str(), { proto: 3, description: "Resources the rule applies to; '*' means all." }),
  resourceNames: list(str(), { proto: 4, description: "Allowed object names; '*' means all." }),
});

export const NonResourceRuleSchema = struct('io.k8s.api.authorization.v1.NonResourceRule', {
  verbs: required(list(str(), { proto: 1, description: "Allowed verbs; '*' means all." })),
  nonResourceURLs: list(str(), { proto: 2, description: "Partial URLs the rule applies to; '*' means all." }),
});

export const SelfSubjectRulesReviewSpecSchema = struct(
  'io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec',
  {
    namespace: str({ proto: 1, description: 'Namespace to list the rules of.' }),
  },
);

export const SubjectRulesReviewStatusSchema = struct('io.k8s.api.authorization.v1.SubjectRulesReviewStatus', {
  resourceRules: required(
    list(ResourceRuleSchema, { proto: 1, description: 'Actions allowed on resources.' }),
  ),
  nonResourceRules: required(
    list(NonResourceRuleSchema, { proto: 2, description: 'Actions allowed on non-resource URLs.' }),
  ),
  incomplete: required(bool({ proto: 3, description: 'True when the authorizer cannot list every rule.' })),
  evaluationError: str({ proto: 4, description: 'Why the rules could not be listed completely.' }),
});

export const SelfSubjectRulesReviewSchema = struct(
  'io.k8s.api.authorization.v1.SelfSubjectRulesReview',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: required(
      field(SelfSubjectRulesReviewSpecSchema, { proto: 2, description: 'The namespace to review.' }),
    ),
    status: field(SubjectRulesReviewStatusSchema, {
      proto: 3,
      description: 'The rules, filled by the server.',
    }),
  },
  { description: 'Lists the actions the requester may perform in a namespace.' },
);
export type SelfSubjectRulesReview = Static<typeof SelfSubjectRulesReviewSchema>;

export const SelfSubjectRulesReviewKind = defineKind({
  group: 'authorization.k8s.io',
  versions: ['v1'],
  kind: 'SelfSubjectRulesReview',
  plural: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  namespaced: false,
  schema: SelfSubjectRulesReviewSchema,
  verbs: ['create'],
  virtual: true,
});
