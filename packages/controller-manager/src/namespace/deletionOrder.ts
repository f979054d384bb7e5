import type { RESTMapping } from '@orch/api';

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
export function namespaceDeletionOrder(mappings: readonly RESTMapping[]): RESTMapping[] {
  return mappings
    .filter((m) => m.namespaced)
    .map((m, i) => ({ m, i }))
    .sort((a, b) => rank(a.m.gvr.resource) - rank(b.m.gvr.resource) || a.i - b.i)
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
