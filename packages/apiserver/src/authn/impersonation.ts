import { isDNS1123Label, isDNS1123Subdomain } from '@orch/api';
import { forbiddenMessage, type AuthorizationAttributes, type Authorizer } from '../authz/authorizer';
import { statusErrors } from '../errors/status-error';
import { anonymousUser, type UserInfo } from './authenticator';
import { serviceAccountUsername } from './service-account-token';

/** The request headers of Kubernetes' user impersonation (authentication/v1), lower-cased as Node gives them. */
export const impersonationHeaders = {
  user: 'impersonate-user',
  group: 'impersonate-group',
  uid: 'impersonate-uid',
  extraPrefix: 'impersonate-extra-',
} as const;

/** Every value of each header, as Node's `IncomingMessage.headersDistinct` gives them. */
export type DistinctHeaders = Record<string, string[] | undefined>;

/** Whether any of a request's headers (`IncomingMessage.rawHeaders`: names and values in turn) is an impersonation header. */
export function asksToImpersonate(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length > 12 && name.slice(0, 12).toLowerCase() === 'impersonate-') return true;
  }
  return false;
}

/** One thing a request asks to act as, checked with the `impersonate` verb on its resource. */
interface ImpersonationRequest {
  resource: 'users' | 'serviceaccounts' | 'groups' | 'userextras' | 'uids';
  name: string;
  /** The service account's namespace. */
  namespace?: string;
  /** The extra's key (a subresource of userextras). */
  extraKey?: string;
}

const authenticatedGroup = 'system:authenticated';
const unauthenticatedGroup = 'system:unauthenticated';
const serviceAccountPrefix = 'system:serviceaccount:';

/**
 * The namespace and name of a service account's username, or undefined for any other username
 * (Kubernetes' serviceaccount.SplitUsername: a namespace that is a DNS label, a name that is a DNS
 * subdomain).
 */
function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length || isDNS1123Subdomain(name).length) return undefined;
  return { namespace, name };
}

/** An extra's key from its header name: lower case, percent-decoded where that is well formed. */
function extraKey(headerName: string): string {
  const key = headerName.slice(impersonationHeaders.extraPrefix.length).toLowerCase();
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * What the impersonation headers ask for, in the order Kubernetes checks them: the user (or service
 * account), each group, each extra value, the uid. Groups, extras or a uid without a user are the
 * client's error (400).
 */
export function impersonationRequests(headers: DistinctHeaders): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  const user = headers[impersonationHeaders.user]?.[0] ?? '';
  if (user) {
    const account = splitServiceAccountUsername(user);
    requests.push(account ? { resource: 'serviceaccounts', ...account } : { resource: 'users', name: user });
  }
  const others: string[] = [];
  for (const group of headers[impersonationHeaders.group] ?? []) {
    requests.push({ resource: 'groups', name: group });
    others.push(`group "${group}"`);
  }
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(impersonationHeaders.extraPrefix)) continue;
    const key = extraKey(header);
    for (const value of values ?? []) {
      requests.push({ resource: 'userextras', name: value, extraKey: key });
      others.push(`extra "${key}"="${value}"`);
    }
  }
  const uid = headers[impersonationHeaders.uid]?.[0] ?? '';
  if (uid) {
    requests.push({ resource: 'uids', name: uid });
    others.push(`uid "${uid}"`);
  }
  if (!user && others.length) {
    throw statusErrors.badRequest(`requested ${others.join(', ')} without impersonating a user`);
  }
  return requests;
}

/** The attributes of `requestor`'s permission to impersonate what `r` names. */
function impersonateAttributes(requestor: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const authenticationGroup = r.resource === 'userextras' || r.resource === 'uids';
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    namespace: r.namespace ?? '',
    apiGroup: authenticationGroup ? 'authentication.k8s.io' : '',
    apiVersion: 'v1',
    resource: r.resource,
    subresource: r.extraKey ?? '',
    name: r.name,
  };
}

/**
 * The user a request acts as: `requestor` itself without impersonation headers, else the user they
 * name once `authorizer` allows `requestor` to impersonate each part of it (403 naming the first it
 * may not), as Kubernetes' impersonation filter builds it. A service account without groups asked
 * for gets its own; a user other than anonymous is in system:authenticated unless the groups asked
 * for say otherwise, anonymous in system:unauthenticated.
 */
export async function impersonate(
  headers: DistinctHeaders,
  requestor: UserInfo,
  authorizer: Authorizer,
): Promise<UserInfo> {
  const requests = impersonationRequests(headers);
  if (!requests.length) return requestor;
  const groupsAskedFor = (headers[impersonationHeaders.group]?.length ?? 0) > 0;
  let username = '';
  let uid = '';
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    switch (r.resource) {
      case 'serviceaccounts':
        username = serviceAccountUsername(r.namespace!, r.name);
        if (!groupsAskedFor) groups.push('system:serviceaccounts', `system:serviceaccounts:${r.namespace}`);
        break;
      case 'users':
        username = r.name;
        break;
      case 'groups':
        groups.push(r.name);
        break;
      case 'userextras':
        (extra[r.extraKey!] ??= []).push(r.name);
        break;
      case 'uids':
        uid = r.name;
        break;
    }
    const attributes = impersonateAttributes(requestor, r);
    const result = await authorizer.authorize(attributes);
    if (result.decision !== 'Allow') {
      throw statusErrors.forbidden(forbiddenMessage(attributes, result.reason), {
        name: r.name,
        group: attributes.apiGroup,
        kind: r.resource,
      });
    }
  }
  if (username !== anonymousUser.username) {
    if (!groups.includes(authenticatedGroup) && !groups.includes(unauthenticatedGroup)) {
      groups.push(authenticatedGroup);
    }
  } else if (!groups.includes(unauthenticatedGroup)) groups.push(unauthenticatedGroup);
  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}
