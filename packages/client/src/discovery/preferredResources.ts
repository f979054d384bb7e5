import type { ResourceDescriptor } from '../types';
import type { APIGroup, APIResource, APIResourceList } from './discoveryTypes';

/** A discovered resource: where it is served (a ResourceDescriptor) with its kind and verbs. */
export interface DiscoveredResource extends ResourceDescriptor {
  kind: string;
  verbs: readonly string[];
}

/** `apps/v1` → { group: 'apps', version: 'v1' }; `v1` → the core group. */
export function parseGroupVersion(groupVersion: string): { group: string; version: string } {
  const i = groupVersion.lastIndexOf('/');
  return i < 0
    ? { group: '', version: groupVersion }
    : { group: groupVersion.slice(0, i), version: groupVersion.slice(i + 1) };
}

/**
 * The resources of every group at the version the server prefers (client-go's
 * ServerPreferredResources): for each group and resource, the APIResource of the group's preferred
 * version, else of the first version serving it; subresources are left out. One list per discovered
 * group/version, in discovery order (empty when another version won all its resources).
 */
export function preferredResources(
  groups: readonly APIGroup[],
  lists: ReadonlyMap<string, APIResourceList>,
): APIResourceList[] {
  const result: APIResourceList[] = [];
  const chosen = new Map<string, { list: APIResourceList; resource: APIResource }>();
  for (const group of groups) {
    for (const v of group.versions) {
      const discovered = lists.get(v.groupVersion);
      if (!discovered) continue;
      const list: APIResourceList = { groupVersion: v.groupVersion, resources: [] };
      result.push(list);
      for (const resource of discovered.resources ?? []) {
        if (resource.name.includes('/')) continue;
        const key = `${group.name}/${resource.name}`;
        if (chosen.has(key) && v.version !== group.preferredVersion?.version) continue;
        chosen.set(key, { list, resource });
      }
    }
  }
  for (const { list, resource } of chosen.values()) list.resources.push(resource);
  return result;
}

/** A test of one resource of a group/version (client-go's ResourcePredicate). */
export type ResourcePredicate = (groupVersion: string, resource: APIResource) => boolean;

/** The lists with only the resources `predicate` accepts; lists left empty are dropped (FilteredBy). */
export function filteredBy(
  lists: readonly APIResourceList[],
  predicate: ResourcePredicate,
): APIResourceList[] {
  return lists
    .map((l) => ({ ...l, resources: (l.resources ?? []).filter((r) => predicate(l.groupVersion, r)) }))
    .filter((l) => l.resources.length > 0);
}

/** Accepts resources supporting every one of `verbs` (client-go's SupportsAllVerbs). */
export function supportsAllVerbs(verbs: readonly string[]): ResourcePredicate {
  return (_gv, r) => verbs.every((v) => (r.verbs ?? []).includes(v));
}

/** The resources of the lists with where they are served (client-go's GroupVersionResources). */
export function discoveredResources(lists: readonly APIResourceList[]): DiscoveredResource[] {
  return lists.flatMap((l) => {
    const { group, version } = parseGroupVersion(l.groupVersion);
    return (l.resources ?? []).map((r) => ({
      group,
      version,
      resource: r.name,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...(r.verbs ?? [])],
    }));
  });
}
