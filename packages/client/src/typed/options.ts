/** Query parameters of list and watch requests. */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
}

/** Where a call goes and how it can be cancelled; `namespace` is ignored for cluster-scoped kinds. */
export interface CallOptions {
  /** Namespace of the call; the client's bound namespace (or the object's) when absent. */
  namespace?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

export interface GetOptions extends CallOptions {
  resourceVersion?: string;
}

export interface WriteOptions extends CallOptions {
  dryRun?: string | string[];
  fieldManager?: string;
}

/** The four patch formats, by their short names. */
export type PatchKind = 'json' | 'merge' | 'strategic' | 'apply';

export interface PatchOptions extends WriteOptions {
  /** Apply patches only: take over fields owned by other managers. */
  force?: boolean;
  /** Patch a subresource (`status`, `scale`, ...) instead of the object. */
  subresource?: string;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface DeleteOptions extends CallOptions {
  dryRun?: string | string[];
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
}
