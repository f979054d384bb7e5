import type { AuthorizationAttributes } from './authorizer';
import type { PolicyRule, Subject } from './rbac-objects';
import type { UserInfo } from '../authn/authenticator';
import { serviceAccountUsername } from '../authn/service-account-token';

const has = (list: readonly string[] | undefined, value: string): boolean =>
  (list ?? []).some((v) => v === '*' || v === value);

/** A rule's resources name `resource[/subresource]`, `*`, or `*\/subresource`. */
function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`),
  );
}

/** A non-resource URL rule entry: exact, `*`, or a prefix ending in `*`. */
function urlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
  );
}

/** Kubernetes' RuleAllows. */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.isResourceRequest) return urlMatches(rule, a.path);
  if (!has(rule.apiGroups, a.apiGroup)) return false;
  if (!resourceMatches(rule, a.resource, a.subresource)) return false;
  return !rule.resourceNames?.length || rule.resourceNames.includes(a.name);
}

/** Whether a binding subject names the user (`bindingNamespace` completes service-account subjects). */
export function subjectMatches(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.username === serviceAccountUsername(namespace, subject.name);
    }
    default:
      return false;
  }
}

/** A subject as RBAC's allow reasons describe it (`ServiceAccount "name/namespace"`). */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount')
    return `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`;
  return `${subject.kind} "${subject.name}"`;
}
