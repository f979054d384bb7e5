import type { ListMeta, ObjectMeta } from '@orch/api';

/**
 * The object shapes the generic machinery (REST client, informers, work queues) handles. Metadata,
 * list metadata and Status are the @orch/api types; the kind-specific rest of an object is open.
 */

/** Any API object: apiVersion/kind plus metadata; the rest is kind-specific. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** A list of objects (`<Kind>List`). */
export interface KubeList<T = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * One decoded event of a watch stream (the meta/v1 WatchEvent with its object decoded). For ERROR
 * the object is a Status.
 */
export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Describes one API resource: enough to build its REST paths. */
export interface ResourceDescriptor {
  /** API group; empty string for the core group. */
  group: string;
  version: string;
  /** Plural lower-case resource name, e.g. "deployments". */
  resource: string;
  namespaced: boolean;
}
