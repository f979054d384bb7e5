import { isGroupDiscoveryFailed } from '@orch/client';

/**
 * Controllers first, so they stop recreating what they own; then pods; then everything else,
 * service accounts and their secrets last (pods may still use them while terminating).
 */
const FIRST = [
  'cronjobs',
  'deployments',
  'statefulsets',
  'daemonsets',
  'jobs',
  'replicasets',
  'replicationcontrollers',
  'pods',
];
const LAST = ['configmaps', 'secrets', 'serviceaccounts'];

function rank(resource: string): number {
  const first = FIRST.indexOf(resource);
  if (first >= 0) return first;
  const last = LAST.indexOf(resource);
  return last >= 0 ? FIRST.length + 1 + last : FIRST.length;
}

/** The namespaced resources in the order a terminating namespace's content is deleted. */
export function namespaceDeletionOrder<R extends { resource: string; namespaced: boolean }>(
  resources: readonly R[],
): R[] {
  return resources
    .filter((m) => m.namespaced)
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m.resource) - rank(b.m.resource) || a.i - b.i)
    .map(({ m }) => m);
}

/** The message of NamespaceContentRemaining (`pods. has 2 resource instances`, Kubernetes' wording). */
export function contentRemainingMessage(remaining: ReadonlyMap<string, number>): string {
  const parts = [...remaining]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([gr, n]) => `${gr} has ${n} resource instances`);
  return `Some resources are remaining: ${parts.join(', ')}`;
}

/** The message of NamespaceFinalizersRemaining. */
export function finalizersRemainingMessage(finalizers: ReadonlyMap<string, number>): string {
  const parts = [...finalizers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([f, n]) => `${f} in ${n} resource instances`);
  return `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`;
}

/**
 * The message of NamespaceDeletionDiscoveryFailure: the failing group/versions counted when only some
 * failed (Kubernetes' wording), else the error itself.
 */
export function discoveryFailureMessage(err: Error): string {
  return isGroupDiscoveryFailed(err)
    ? `Discovery failed for some groups, ${err.groups.size} failing: ${err.message}`
    : err.message;
}
