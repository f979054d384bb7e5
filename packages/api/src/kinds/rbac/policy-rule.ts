import type { Static } from '@sinclair/typebox';
import { list, str, struct, type StructSchema } from '../../schema/fields';
import { child, invalid, required, type FieldError } from '../../validation/field-error';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const policyRuleFields = {
  verbs: list(str(), { proto: 1, description: "Verbs the rule allows; '*' allows every verb." }),
  apiGroups: list(str(), { proto: 2, description: "API groups of the resources; '' is the core group." }),
  resources: list(str(), { proto: 3, description: "Resources the rule applies to; '*' means all." }),
  resourceNames: list(str(), { proto: 4, description: 'Optional allow-list of object names.' }),
  nonResourceURLs: list(str(), {
    proto: 5,
    description: 'Partial URLs a user may access; only for cluster-scoped roles, exclusive with resources.',
  }),
};

/** The value a PolicyRule hook receives. */
type PolicyRuleValue = Static<StructSchema<typeof policyRuleFields>>;

export const PolicyRuleSchema = struct('io.k8s.api.rbac.v1.PolicyRule', policyRuleFields, {
  validate: (rule, path) => validatePolicyRule(rule, path),
});
export type PolicyRule = Static<typeof PolicyRuleSchema>;

/** Kubernetes' ValidatePolicyRule, except the rule on namespaced roles (checked by Role). */
function validatePolicyRule(rule: PolicyRuleValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!rule.verbs?.length)
    errors.push(required(child(path, 'verbs'), 'verbs must contain at least one value'));
  if (rule.nonResourceURLs?.length) {
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      errors.push(
        invalid(
          child(path, 'nonResourceURLs'),
          rule.nonResourceURLs,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errors;
  }
  if (!rule.apiGroups?.length) {
    errors.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  }
  if (!rule.resources?.length) {
    errors.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  }
  return errors;
}
