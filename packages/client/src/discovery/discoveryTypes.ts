/**
 * The classic (non-aggregated) discovery documents of meta/v1 as the apiserver serves them at
 * `/api`, `/apis`, `/api/v1` and `/apis/<group>/<version>`.
 */

/** GET /api: the versions of the core group. */
export interface APIVersions {
  kind?: string;
  apiVersion?: string;
  versions: string[];
  serverAddressByClientCIDRs?: { clientCIDR: string; serverAddress: string }[];
}

/** One version of a group: `apps/v1` and `v1`. */
export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

/** A group with its served versions, the preferred one first. The core group's name is "". */
export interface APIGroup {
  kind?: string;
  apiVersion?: string;
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion?: GroupVersionForDiscovery;
}

/** GET /apis: every named group. */
export interface APIGroupList {
  kind?: string;
  apiVersion?: string;
  groups: APIGroup[];
}

/** One resource (or `resource/subresource`) of a group/version. */
export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  /** Set when it differs from the list's group (a subresource such as scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

/** GET /api/v1 or /apis/<group>/<version>: the resources of one group/version. */
export interface APIResourceList {
  kind?: string;
  apiVersion?: string;
  groupVersion: string;
  resources: APIResource[];
}
