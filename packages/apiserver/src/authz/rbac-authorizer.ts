import { aggregateText } from '@orch/api';
import type { UserInfo } from '../authn/authenticator';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RulesResult } from './authorizer';
import type { PolicyCache } from './policy-cache';
import { rbacGroup, type BindingObject, type PolicyRule, type Subject } from './rbac-objects';
import { describeSubject, ruleAllows, subjectMatches } from './rule-matching';

interface Grant {
  binding: BindingObject;
  subject: Subject;
  rules: PolicyRule[];
}

/**
 * `--authorization-mode=RBAC`: allows what a Role or ClusterRole bound to the user (directly, through
 * a group, or as a service account) allows; has no opinion otherwise. Reads the policy cache only.
 */
export class RBACAuthorizer implements Authorizer {
  /** Decisions by user and request attributes, valid while the policy cache's generation is `decidedAt`. */
  private readonly decisions = new Map<string, AuthorizationResult>();
  private decidedAt = -1;

  constructor(private readonly cache: PolicyCache) {}

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    if (this.decidedAt !== this.cache.generation || this.decisions.size >= maxCachedDecisions) {
      this.decisions.clear();
      this.decidedAt = this.cache.generation;
    }
    const key = decisionKey(a);
    let result = this.decisions.get(key);
    if (!result) {
      result = this.decide(a);
      this.decisions.set(key, result);
    }
    return result;
  }

  private decide(a: AuthorizationAttributes): AuthorizationResult {
    const errors: string[] = [];
    for (const grant of this.grants(a.user, a.namespace, errors)) {
      if (!grant.rules.some((r) => ruleAllows(a, r))) continue;
      return { decision: 'Allow', reason: `RBAC: allowed by ${this.describe(grant)}` };
    }
    return { decision: 'NoOpinion', reason: errors.length ? `RBAC: ${aggregateText(errors)}` : '' };
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const errors: string[] = [];
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const grant of this.grants(user, namespace, errors)) {
      for (const r of grant.rules) {
        if (r.resources?.length) {
          out.resourceRules.push({
            verbs: [...(r.verbs ?? [])],
            apiGroups: [...(r.apiGroups ?? [])],
            resources: [...r.resources],
            ...(r.resourceNames?.length ? { resourceNames: [...r.resourceNames] } : {}),
          });
        }
        if (r.nonResourceURLs?.length)
          out.nonResourceRules.push({ verbs: [...(r.verbs ?? [])], nonResourceURLs: [...r.nonResourceURLs] });
      }
    }
    if (errors.length) out.evaluationError = aggregateText(errors);
    return out;
  }

  /** The bindings that apply to the user (cluster-wide, then in the namespace) with their roles' rules. */
  private *grants(user: UserInfo, namespace: string, errors: string[]): Generator<Grant> {
    for (const binding of this.cache.clusterRoleBindingList()) {
      const subject = binding.subjects?.find((s) => subjectMatches(user, s, ''));
      if (!subject) continue;
      const rules = this.roleRules(binding, '', errors);
      if (rules) yield { binding, subject, rules };
    }
    if (!namespace) return;
    for (const binding of this.cache.roleBindingList(namespace)) {
      const subject = binding.subjects?.find((s) => subjectMatches(user, s, namespace));
      if (!subject) continue;
      const rules = this.roleRules(binding, namespace, errors);
      if (rules) yield { binding, subject, rules };
    }
  }

  private roleRules(binding: BindingObject, namespace: string, errors: string[]): PolicyRule[] | undefined {
    const ref = binding.roleRef;
    if (ref.kind === 'ClusterRole') {
      const rules = this.cache.clusterRoleRules(ref.name);
      if (!rules) errors.push(`clusterrole.${rbacGroup} "${ref.name}" not found`);
      return rules;
    }
    if (ref.kind === 'Role' && namespace) {
      const rules = this.cache.roleRules(namespace, ref.name);
      if (!rules) errors.push(`role.${rbacGroup} "${ref.name}" not found`);
      return rules;
    }
    errors.push(`unsupported role reference kind: "${ref.kind}"`);
    return undefined;
  }

  private describe(grant: Grant): string {
    const { binding, subject } = grant;
    const ns = binding.metadata.namespace ?? '';
    const name = ns
      ? `RoleBinding "${binding.metadata.name}/${ns}"`
      : `ClusterRoleBinding "${binding.metadata.name}"`;
    return `${name} of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${describeSubject(subject, ns)}`;
  }
}

/** Decisions kept at most (all are dropped when full, and whenever RBAC objects change). */
const maxCachedDecisions = 10_000;

/** What an RBAC decision depends on: who (name and groups decide which subjects match) and what. */
function decisionKey(a: AuthorizationAttributes): string {
  const u = a.user;
  return [
    u.username,
    u.groups.join(','),
    a.verb,
    a.isResourceRequest ? '' : a.path,
    a.namespace,
    a.apiGroup,
    a.resource,
    a.subresource,
    a.name,
  ].join('\0');
}
