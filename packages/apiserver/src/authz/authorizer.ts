import { aggregateText } from '@orch/api';
import type { UserInfo } from '../authn/authenticator';

/** What a request wants to do (Kubernetes' authorizer.Attributes). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** For non-resource requests. */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
}

/** A resource rule as SelfSubjectRulesReview reports it. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

/** A non-resource rule as SelfSubjectRulesReview reports it. */
export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

/** What a user may do in a namespace (Kubernetes' RuleResolver answer). */
export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when the authorizer cannot list everything the user may do. */
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult>;
  /** The rules of a user in a namespace; authorizers that cannot list rules leave it out. */
  rulesFor?(user: UserInfo, namespace: string): Promise<RulesResult>;
}

const everything: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

/** `--authorization-mode=AlwaysAllow`. */
export class AlwaysAllowAuthorizer implements Authorizer {
  async authorize(): Promise<AuthorizationResult> {
    return { decision: 'Allow', reason: '' };
  }

  async rulesFor(): Promise<RulesResult> {
    return structuredClone(everything);
  }
}

/** `--authorization-mode=AlwaysDeny`: no opinion on anything, so everything ends up forbidden. */
export class AlwaysDenyAuthorizer implements Authorizer {
  async authorize(): Promise<AuthorizationResult> {
    return { decision: 'NoOpinion', reason: 'Everything is forbidden.' };
  }

  async rulesFor(): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}

/**
 * Members of the privileged groups (system:masters) may do anything, before any other authorizer is
 * asked. It lists no rules: cluster-admin, bound to system:masters, shows them through RBAC.
 */
export class PrivilegedGroupsAuthorizer implements Authorizer {
  constructor(private readonly groups: readonly string[] = ['system:masters']) {}

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return a.user.groups.some((g) => this.groups.includes(g))
      ? { decision: 'Allow', reason: '' }
      : { decision: 'NoOpinion', reason: '' };
  }
}

/** Asks each authorizer in turn; the first Allow or Deny decides. Otherwise the reasons given are joined. */
export class UnionAuthorizer implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  async authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> {
    const reasons: string[] = [];
    for (const a of this.authorizers) {
      const r = await a.authorize(attributes);
      if (r.decision !== 'NoOpinion') return r;
      if (r.reason) reasons.push(r.reason);
    }
    return { decision: 'NoOpinion', reason: reasons.join('\n') };
  }

  /** The rules of every authorizer that can list them, together; incomplete when one of them says so. */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const a of this.authorizers) {
      if (!a.rulesFor) continue;
      const r = await a.rulesFor(user, namespace);
      out.resourceRules.push(...r.resourceRules);
      out.nonResourceRules.push(...r.nonResourceRules);
      if (r.incomplete) out.incomplete = true;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    if (errors.length) out.evaluationError = aggregateText(errors);
    return out;
  }
}

/** Kubernetes' Forbidden message for a denied request. */
export function forbiddenMessage(a: AuthorizationAttributes, reason: string): string {
  const who = `User "${a.user.username}"`;
  const suffix = reason ? `: ${reason}` : '';
  if (!a.isResourceRequest) return `forbidden: ${who} cannot ${a.verb} path "${a.path}"${suffix}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? ` in the namespace "${a.namespace}"` : ' at the cluster scope';
  const what = `${who} cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}"${scope}`;
  // the error names the resource (without subresource) and object, as apierrors.NewForbidden does
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  return `${subject} is forbidden: ${what}${suffix}`;
}
