import type { RESTMapping } from '@orch/api';
import { defaultRESTMapper } from '@orch/client';

/** Resources the garbage collector and namespace controller leave alone (Kubernetes ignores events). */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

/**
 * The stored resources that can be listed, watched and deleted, one mapping per kind (its preferred
 * version), from the RESTMapper of @orch/api.
 */
export function deletableResources(): RESTMapping[] {
  return defaultRESTMapper()
    .all()
    .filter((m) => {
      const d = m.declaration;
      if (!m.preferred || d.virtual || IGNORED.has(`${m.gvr.group}/${m.gvr.resource}`)) return false;
      const verbs = d.verbs as readonly string[] | undefined;
      return !verbs || ['list', 'watch', 'delete'].every((v) => verbs.includes(v));
    });
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
