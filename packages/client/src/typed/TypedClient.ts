import type {
  Binding,
  DeleteOptions as DeleteOptionsBody,
  Eviction,
  KindDeclaration,
  RESTMapping,
  Scale,
  Status,
  TokenRequest,
} from '@orch/api';
import { apiVersionOf } from '@orch/api';
import { PatchType, type QueryParams, type Request, type Verb } from '../rest/Request';
import type { RestClient } from '../rest/RestClient';
import { isResourceExpired } from '../rest/StatusError';
import type { KubeList, KubeObject, ResourceDescriptor } from '../types';
import type { WatchStream } from '../watch/WatchStream';
import type {
  CallOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  PatchKind,
  PatchOptions,
  WriteOptions,
} from './options';

/** What a typed client can be built from: a kind declaration, a REST mapping or a bare resource. */
export type ResourceTarget = KindDeclaration<any> | RESTMapping | ResourceDescriptor;

const patchContentTypes: Record<PatchKind, string> = {
  json: PatchType.Json,
  merge: PatchType.Merge,
  strategic: PatchType.StrategicMerge,
  apply: PatchType.Apply,
};

/** A resource with its declaration, if known. */
export interface ResolvedResource {
  resource: ResourceDescriptor;
  declaration?: KindDeclaration<any>;
}

/** The resource (group, version, plural, scope) and declaration, if any, of a target. */
export function resolveTarget(target: ResourceTarget | ResolvedResource, version?: string): ResolvedResource {
  if (typeof (target as { resource?: unknown }).resource === 'object') {
    return target as ResolvedResource;
  }
  if ('gvr' in target) {
    return {
      resource: { ...target.gvr, namespaced: target.namespaced },
      declaration: target.declaration,
    };
  }
  if ('plural' in target) {
    const v = version ?? target.versions[0];
    if (!v || !target.versions.includes(v)) {
      throw new Error(`${target.kind} is not served at version ${version}`);
    }
    return {
      resource: { group: target.group, version: v, resource: target.plural, namespaced: target.namespaced },
      declaration: target,
    };
  }
  return { resource: target as ResourceDescriptor };
}

/** Options of `listAll`: list options plus the size of each chunk. */
export interface ListAllOptions extends ListOptions, CallOptions {
  /** Items per request (limit); 500 as client-go's pager. */
  pageSize?: number;
}

/**
 * The verbs of one resource with its object type.
 *
 * Build one with `clientFor(rest, PodKind)` or `clientset.for(PodKind)` (typed as `Pod`), or by name
 * with `clientset.resource('deployments.apps')`. Namespaced calls take `{ namespace }` in their
 * options, or use a client bound with `.namespace('ns')`; writes default to the object's namespace.
 *
 * ```ts
 * const pods = clientset.for(PodKind).namespace('default');
 * const pod = await pods.get('web-0');
 * await pods.patch('web-0', 'merge', { metadata: { labels: { a: 'b' } } });
 * await pods.bind(pod, 'node-1');
 * const all = await clientset.for(NodeKind).listAll({ labelSelector: 'zone=a' });
 * ```
 */
export class TypedClient<T extends KubeObject = KubeObject> {
  readonly resource: ResourceDescriptor;
  /** The kind's declaration when known (absent for clients built from a bare resource). */
  readonly declaration: KindDeclaration<any> | undefined;

  constructor(
    readonly rest: RestClient,
    target: ResourceTarget | ResolvedResource,
    private readonly boundNamespace?: string,
  ) {
    const { resource, declaration } = resolveTarget(target);
    this.resource = resource;
    this.declaration = declaration;
  }

  /** The same client with calls going to `namespace` unless a call says otherwise. */
  namespace(namespace: string): TypedClient<T> {
    return new TypedClient<T>(
      this.rest,
      { resource: this.resource, declaration: this.declaration },
      namespace,
    );
  }

  /** The apiVersion of objects of this client (`v1`, `apps/v1`). */
  get apiVersion(): string {
    return apiVersionOf(this.resource.group, this.resource.version);
  }

  private request(verb: Verb, opts: CallOptions, namespace?: string): Request {
    const req = this.rest
      .verb(verb)
      .group(this.resource.group)
      .version(this.resource.version)
      .namespace(this.resource.namespaced ? (opts.namespace ?? namespace ?? this.boundNamespace) : undefined)
      .resource(this.resource.resource);
    if (opts.signal) {
      req.signal(opts.signal);
    }
    return req;
  }

  private named(
    verb: Verb,
    name: string,
    opts: CallOptions,
    namespace?: string,
    subresource?: string,
  ): Request {
    const req = this.request(verb, opts, namespace).name(name);
    return subresource ? req.subresource(subresource) : req;
  }

  private requireSubresource(name: string): void {
    if (this.declaration && !this.declaration.subresources?.[name]) {
      throw new Error(`${this.resource.resource} has no ${name} subresource`);
    }
  }

  get(name: string, opts: GetOptions = {}): Promise<T> {
    return this.named('GET', name, opts).param('resourceVersion', opts.resourceVersion).do<T>();
  }

  /** One list request (one chunk when `limit` is set). */
  list(opts: ListOptions & CallOptions = {}): Promise<KubeList<T>> {
    const { namespace: _n, signal: _s, ...query } = opts;
    return this.request('GET', opts)
      .params(query as QueryParams)
      .do<KubeList<T>>();
  }

  /**
   * Lists everything in chunks of `pageSize`, following `continue` tokens; when a token expires
   * mid-way (410 Expired) it falls back to one full list, as client-go's pager does.
   */
  async listAll(opts: ListAllOptions = {}): Promise<KubeList<T>> {
    const { pageSize = 500, ...rest } = opts;
    const first = await this.list({ ...rest, limit: pageSize });
    const items = [...first.items];
    let token = first.metadata?.continue;
    let last = first;
    while (token) {
      try {
        last = await this.list({ ...rest, limit: pageSize, continue: token, resourceVersion: undefined });
      } catch (err) {
        if (!isResourceExpired(err)) {
          throw err;
        }
        return this.list({ ...rest, limit: undefined, continue: undefined });
      }
      items.push(...last.items);
      token = last.metadata?.continue;
    }
    const metadata = { ...last.metadata };
    delete metadata.continue;
    delete metadata.remainingItemCount;
    return { ...first, metadata, items };
  }

  /** Starts a watch; aborting `signal` ends it like WatchStream.stop(). */
  watch(opts: ListOptions & CallOptions = {}): Promise<WatchStream<T>> {
    const { namespace: _n, signal: _s, ...query } = opts;
    return this.request('GET', opts)
      .params(query as QueryParams)
      .timeout(0)
      .watch<T>();
  }

  create(obj: T, opts: WriteOptions = {}): Promise<T> {
    const { namespace: _n, signal: _s, ...query } = opts;
    return this.request('POST', opts, obj.metadata?.namespace)
      .params(query as QueryParams)
      .body(this.typed(obj))
      .do<T>();
  }

  update(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.put(obj, opts);
  }

  async updateStatus(obj: T, opts: WriteOptions = {}): Promise<T> {
    this.requireSubresource('status');
    return this.put(obj, opts, 'status');
  }

  private put(obj: T, opts: WriteOptions, subresource?: string): Promise<T> {
    const { namespace: _n, signal: _s, ...query } = opts;
    return this.named('PUT', obj.metadata?.name ?? '', opts, obj.metadata?.namespace, subresource)
      .params(query as QueryParams)
      .body(this.typed(obj))
      .do<T>();
  }

  /**
   * Patches an object. `patch` is the patch document: an array of operations for `json`, a partial
   * object for `merge` and `strategic`, the full intent for `apply` (needs `fieldManager`).
   */
  async patch(name: string, kind: PatchKind, patch: unknown, opts: PatchOptions = {}): Promise<T> {
    const { namespace: _n, signal: _s, subresource, ...query } = opts;
    if (kind === 'apply' && !query.fieldManager) {
      throw new Error('an apply patch needs a fieldManager');
    }
    if (kind !== 'apply' && query.force !== undefined) {
      throw new Error('force is only allowed with apply patches');
    }
    const body = typeof patch === 'string' || Buffer.isBuffer(patch) ? patch : JSON.stringify(patch);
    return this.named('PATCH', name, opts, undefined, subresource)
      .params(query as QueryParams)
      .body(body, patchContentTypes[kind])
      .do<T>();
  }

  /** Server-side apply of `obj` (its name and namespace pick the target). */
  apply(obj: T, opts: PatchOptions & { fieldManager: string }): Promise<T> {
    return this.patch(obj.metadata?.name ?? '', 'apply', this.typed(obj), {
      namespace: obj.metadata?.namespace,
      ...opts,
    });
  }

  /** Deletes an object; resolves with the object (when deletion is graceful or has finalizers) or a Status. */
  delete(name: string, opts: DeleteOptions = {}): Promise<T | Status> {
    const req = this.named('DELETE', name, opts);
    this.deleteParams(req, opts);
    return req.do<T | Status>();
  }

  /** Deletes every object matching the list options. */
  deleteCollection(opts: DeleteOptions & ListOptions = {}): Promise<Status | KubeList<T>> {
    const {
      namespace: _n,
      signal: _s,
      preconditions: _p,
      dryRun,
      propagationPolicy,
      gracePeriodSeconds,
      ...list
    } = opts;
    const req = this.request('DELETE', opts).params(list as QueryParams);
    this.deleteParams(req, { dryRun, propagationPolicy, gracePeriodSeconds });
    return req.do<Status | KubeList<T>>();
  }

  private deleteParams(req: Request, opts: DeleteOptions): void {
    req.params({
      dryRun: opts.dryRun,
      propagationPolicy: opts.propagationPolicy,
      gracePeriodSeconds: opts.gracePeriodSeconds,
    });
    if (opts.preconditions) {
      const body: DeleteOptionsBody = {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions: opts.preconditions,
      };
      req.body(JSON.stringify(body), 'application/json');
    }
  }

  /** GET of a subresource (`scale`, `status`, ...). */
  getSubresource<R = T>(name: string, subresource: string, opts: GetOptions = {}): Promise<R> {
    return this.named('GET', name, opts, undefined, subresource)
      .param('resourceVersion', opts.resourceVersion)
      .do<R>();
  }

  /** POST to a subresource (`binding`, `eviction`, `token`). */
  createSubresource<R = unknown>(
    name: string,
    subresource: string,
    body: unknown,
    opts: WriteOptions = {},
  ): Promise<R> {
    const { namespace: _n, signal: _s, ...query } = opts;
    return this.named('POST', name, opts, undefined, subresource)
      .params(query as QueryParams)
      .body(body)
      .do<R>();
  }

  /** PUT of a subresource. */
  updateSubresource<R = unknown>(
    name: string,
    subresource: string,
    body: unknown,
    opts: WriteOptions = {},
  ): Promise<R> {
    const { namespace: _n, signal: _s, ...query } = opts;
    return this.named('PUT', name, opts, undefined, subresource)
      .params(query as QueryParams)
      .body(body)
      .do<R>();
  }

  /** The autoscaling/v1 Scale of an object with a scale subresource. */
  async getScale(name: string, opts: GetOptions = {}): Promise<Scale> {
    this.requireSubresource('scale');
    return this.getSubresource<Scale>(name, 'scale', opts);
  }

  /** Writes the Scale (spec.replicas); `scale.metadata.resourceVersion` makes it conditional. */
  async updateScale(name: string, scale: Scale, opts: WriteOptions = {}): Promise<Scale> {
    this.requireSubresource('scale');
    const body: Scale = { ...scale, apiVersion: 'autoscaling/v1', kind: 'Scale' };
    return this.updateSubresource<Scale>(name, 'scale', body, {
      namespace: scale.metadata?.namespace,
      ...opts,
    });
  }

  /** Binds a pod to a node (POST pods/{name}/binding), as the scheduler does. */
  async bind(pod: KubeObject, nodeName: string, opts: WriteOptions = {}): Promise<Status> {
    this.requireSubresource('binding');
    const name = pod.metadata?.name ?? '';
    const namespace = opts.namespace ?? pod.metadata?.namespace;
    const binding: Binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: {
        name,
        ...(namespace ? { namespace } : {}),
        ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}),
      },
      target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
    };
    return this.createSubresource<Status>(name, 'binding', binding, { ...opts, namespace });
  }

  /** Evicts a pod (POST pods/{name}/eviction); a disruption budget may refuse with 429. */
  async evict(
    name: string,
    opts: WriteOptions & { deleteOptions?: Omit<DeleteOptionsBody, 'apiVersion' | 'kind'> } = {},
  ): Promise<Status> {
    this.requireSubresource('eviction');
    const { deleteOptions, ...write } = opts;
    const sub = this.declaration?.subresources?.eviction as { group?: string; version?: string } | undefined;
    const namespace = opts.namespace ?? this.boundNamespace;
    const eviction: Eviction = {
      apiVersion: apiVersionOf(sub?.group ?? 'policy', sub?.version ?? 'v1'),
      kind: 'Eviction',
      metadata: { name, ...(namespace ? { namespace } : {}) },
      ...(deleteOptions
        ? { deleteOptions: { apiVersion: 'v1', kind: 'DeleteOptions', ...deleteOptions } }
        : {}),
    } as Eviction;
    return this.createSubresource<Status>(name, 'eviction', eviction, write);
  }

  /** Requests a token for a service account (POST serviceaccounts/{name}/token). */
  async createToken(
    name: string,
    spec: TokenRequest['spec'],
    opts: WriteOptions = {},
  ): Promise<TokenRequest> {
    this.requireSubresource('token');
    const request: TokenRequest = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec,
    } as TokenRequest;
    return this.createSubresource<TokenRequest>(name, 'token', request, opts);
  }

  /** The object with apiVersion and kind filled in when the declaration knows them. */
  private typed(obj: T): T {
    if (!this.declaration || (obj.apiVersion && obj.kind)) {
      return obj;
    }
    return { ...obj, apiVersion: obj.apiVersion ?? this.apiVersion, kind: obj.kind ?? this.declaration.kind };
  }
}
