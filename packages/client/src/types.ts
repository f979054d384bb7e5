/**
 * Minimal structural types for the objects the client handles. They mirror the Kubernetes
 * meta/v1 shapes closely enough that the full @orch/api types can replace them later.
 */

export interface OwnerReferenceLike {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMetaLike {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReferenceLike[];
  finalizers?: string[];
}

/** Any API object: apiVersion/kind plus metadata; the rest is kind-specific. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetaLike;
  [field: string]: unknown;
}

export interface ListMetaLike {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  selfLink?: string;
}

export interface KubeList<T = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMetaLike;
  items: T[];
}

export interface StatusCauseLike {
  type?: string;
  message?: string;
  field?: string;
}

export interface StatusDetailsLike {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCauseLike[];
  retryAfterSeconds?: number;
}

export interface StatusLike {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMetaLike;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetailsLike;
  code?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One event of a watch stream. For ERROR the object is a Status. */
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

/** Pluggable label selector: @orch/api selectors satisfy this shape. */
export interface LabelSelectorLike {
  matches(labels: Record<string, string>): boolean;
  /** Text form sent as the labelSelector query parameter, when the selector has one. */
  toString(): string;
}
