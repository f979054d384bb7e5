import type { KubeList, KubeObject, ResourceDescriptor } from '../types';
import type { WatchStream } from '../watch/WatchStream';
import { PatchType, type QueryParams, type Request, type Verb } from './Request';
import type { RestClient } from './RestClient';

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

export interface WriteOptions {
  dryRun?: string | string[];
  fieldManager?: string;
}

export interface PatchOptions extends WriteOptions {
  force?: boolean;
}

export interface DeleteOptions {
  dryRun?: string | string[];
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** Typed verbs for one resource. `namespace` is ignored for cluster-scoped resources. */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    readonly client: RestClient,
    readonly resource: ResourceDescriptor,
  ) {}

  private request(verb: Verb, namespace: string | undefined): Request {
    return this.client
      .verb(verb)
      .group(this.resource.group)
      .version(this.resource.version)
      .namespace(this.resource.namespaced ? namespace : undefined)
      .resource(this.resource.resource);
  }

  list(namespace?: string, opts: ListOptions = {}, signal?: AbortSignal): Promise<KubeList<T>> {
    const req = this.request('GET', namespace).params(opts as QueryParams);
    if (signal) {
      req.signal(signal);
    }
    return req.do<KubeList<T>>();
  }

  /** Starts a watch; aborting the signal ends it like WatchStream.stop(). */
  watch(namespace?: string, opts: ListOptions = {}, signal?: AbortSignal): Promise<WatchStream<T>> {
    const req = this.request('GET', namespace)
      .params(opts as QueryParams)
      .timeout(0);
    if (signal) {
      req.signal(signal);
    }
    return req.watch<T>();
  }

  get(name: string, namespace?: string): Promise<T> {
    return this.request('GET', namespace).name(name).do<T>();
  }

  create(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.request('POST', obj.metadata?.namespace)
      .params(opts as QueryParams)
      .body(obj)
      .do<T>();
  }

  update(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.request('PUT', obj.metadata?.namespace)
      .name(obj.metadata?.name ?? '')
      .params(opts as QueryParams)
      .body(obj)
      .do<T>();
  }

  updateStatus(obj: T, opts: WriteOptions = {}): Promise<T> {
    return this.request('PUT', obj.metadata?.namespace)
      .name(obj.metadata?.name ?? '')
      .subresource('status')
      .params(opts as QueryParams)
      .body(obj)
      .do<T>();
  }

  patch(
    name: string,
    namespace: string | undefined,
    patch: unknown,
    patchType: string = PatchType.Merge,
    opts: PatchOptions = {},
    subresource?: string,
  ): Promise<T> {
    const req = this.request('PATCH', namespace).name(name);
    if (subresource) {
      req.subresource(subresource);
    }
    const body = typeof patch === 'string' || Buffer.isBuffer(patch) ? patch : JSON.stringify(patch);
    return req
      .params(opts as QueryParams)
      .body(body, patchType)
      .do<T>();
  }

  delete(name: string, namespace?: string, opts: DeleteOptions = {}): Promise<unknown> {
    const { preconditions, ...params } = opts;
    const req = this.request('DELETE', namespace)
      .name(name)
      .params(params as QueryParams);
    if (preconditions) {
      req.body({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions }, 'application/json');
    }
    return req.do();
  }

  deleteCollection(namespace?: string, opts: DeleteOptions & ListOptions = {}): Promise<unknown> {
    const { preconditions: _preconditions, ...params } = opts;
    return this.request('DELETE', namespace)
      .params(params as QueryParams)
      .do();
  }
}
