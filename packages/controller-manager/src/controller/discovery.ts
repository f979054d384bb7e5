import { allVerbs, splitAPIVersion, type RESTMapping } from '@orch/api';
import {
  defaultRESTMapper,
  discoveredResources,
  filteredBy,
  supportsAllVerbs,
  type DiscoveredResource,
  type PartialDiscovery,
} from '@orch/client';

/** Where the controllers learn what the server serves (a DiscoveryClient, or a stand-in in tests). */
export interface ResourceDiscovery {
  serverPreferredResources(): Promise<PartialDiscovery>;
}

/** A resource of the static REST mapper, in the shape discovery gives. */
export function discoveredResourceOf(m: RESTMapping): DiscoveredResource {
  return {
    ...m.gvr,
    namespaced: m.namespaced,
    kind: m.gvk.kind,
    verbs: [...((m.declaration.verbs as readonly string[] | undefined) ?? allVerbs)],
  };
}

/**
 * The stored kinds this build declares at their preferred version, from the RESTMapper of @orch/api:
 * what the controllers know before discovery answers (custom resources come only from discovery).
 */
export function staticResources(): DiscoveredResource[] {
  return defaultRESTMapper()
    .all()
    .filter((m) => m.preferred && !m.declaration.virtual)
    .map(discoveredResourceOf);
}

/** The resources supporting every one of `verbs`. */
export function withVerbs(
  resources: readonly DiscoveredResource[],
  verbs: readonly string[],
): DiscoveredResource[] {
  return resources.filter((r) => verbs.every((v) => r.verbs.includes(v)));
}

/** The static resources that can be listed, watched and deleted (the garbage collector's before discovery). */
export function deletableResources(): DiscoveredResource[] {
  return withVerbs(staticResources(), ['list', 'watch', 'delete']);
}

/**
 * The server's preferred resources supporting every one of `verbs`, with the group/versions that
 * failed (Kubernetes' GetDeletableResources and the namespace deleter's discovery). A discovery
 * that fails altogether is returned as the error with no resources.
 */
export async function discoverResources(
  discovery: ResourceDiscovery,
  verbs: readonly string[],
): Promise<{ all: DiscoveredResource[]; matching: DiscoveredResource[]; error?: Error }> {
  try {
    const { resources, error } = await discovery.serverPreferredResources();
    return {
      all: discoveredResources(resources),
      matching: discoveredResources(filteredBy(resources, supportsAllVerbs(verbs))),
      ...(error ? { error } : {}),
    };
  } catch (err) {
    return { all: [], matching: [], error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/**
 * The resource of an apiVersion/kind's group and kind, at the version `resources` (discovered) serve
 * it, else at the preferred version of the static mapper; any served version names the same object.
 */
export function resourceForKind(
  apiVersion: string,
  kind: string,
  resources: readonly DiscoveredResource[] = [],
): DiscoveredResource | undefined {
  const [group] = splitAPIVersion(apiVersion);
  const discovered = resources.find((r) => r.group === group && r.kind === kind);
  if (discovered) return discovered;
  const mapping = mappingForKind(apiVersion, kind);
  return mapping && discoveredResourceOf(mapping);
}

/** The preferred mapping of an apiVersion/kind's group and kind (any served version names the same object). */
export function mappingForKind(apiVersion: string, kind: string): RESTMapping | undefined {
  const mapper = defaultRESTMapper();
  const exact = mapper.forObject(apiVersion, kind);
  if (!exact) return undefined;
  return mapper.forKind(exact.gvk.group, exact.declaration.versions[0] ?? exact.gvk.version, kind) ?? exact;
}

export const descriptorOf = (
  m: RESTMapping,
): { group: string; version: string; resource: string; namespaced: boolean } => ({
  ...m.gvr,
  namespaced: m.namespaced,
});
