import {
  allKinds,
  RESTMapper,
  splitAPIVersion,
  type GroupVersionKind,
  type GroupVersionResource,
  type KindDeclaration,
} from '@orch/api';
import { RestClient, type RestClientOptions } from '../rest/RestClient';
import type { RestConfig } from '../rest/RestConfig';
import type { KubeObject } from '../types';
import { clientFor, type ObjectOfTarget } from './clientFor';
import type { TypedClient } from './TypedClient';

let sharedMapper: RESTMapper | undefined;

/** The REST mapper of every declared kind, built once. */
export function defaultRESTMapper(): RESTMapper {
  sharedMapper ??= new RESTMapper(allKinds);
  return sharedMapper;
}

/**
 * Typed clients for every declared kind, derived from the declarations through the RESTMapper.
 *
 * ```ts
 * const cs = Clientset.forConfig(restConfig);
 * const pods = cs.for(PodKind);                    // TypedClient<Pod>
 * const deploys = cs.resource('deployments.apps'); // by any name kubectl accepts
 * const leases = cs.forGVK({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' });
 * ```
 */
export class Clientset {
  private readonly clients = new Map<string, TypedClient<KubeObject>>();

  constructor(
    readonly rest: RestClient,
    readonly mapper: RESTMapper = defaultRESTMapper(),
  ) {}

  static forConfig(config: RestConfig, options?: RestClientOptions): Clientset {
    return new Clientset(new RestClient(config, options));
  }

  /** The client of a declared kind, at its preferred version unless `version` says otherwise. */
  for<D extends KindDeclaration<any>>(declaration: D, version?: string): TypedClient<ObjectOfTarget<D>> {
    const v = version ?? declaration.versions[0] ?? '';
    const mapping = this.mapper.forKind(declaration.group, v, declaration.kind);
    if (!mapping) {
      throw new Error(`no resource for ${declaration.kind} in ${declaration.group || 'core'}/${v}`);
    }
    return this.cached(`${mapping.gvr.group}/${v}/${mapping.gvr.resource}`, () =>
      clientFor(this.rest, declaration, { version: v }),
    ) as unknown as TypedClient<ObjectOfTarget<D>>;
  }

  /** The client of a resource named as kubectl accepts it: `pods`, `po`, `deployments.apps`, `cronjobs.v1.batch`. */
  resource<T extends KubeObject = KubeObject>(name: string): TypedClient<T> {
    const mapping = this.mapper.resolve(name);
    if (!mapping) {
      throw new Error(`the server doesn't have a resource type "${name}"`);
    }
    return this.forGVR<T>(mapping.gvr);
  }

  forGVR<T extends KubeObject = KubeObject>(gvr: GroupVersionResource): TypedClient<T> {
    const mapping = this.mapper.forResource(gvr.group, gvr.version, gvr.resource);
    if (!mapping) {
      throw new Error(`no resource ${gvr.resource} in ${gvr.group || 'core'}/${gvr.version}`);
    }
    return this.cached(`${gvr.group}/${gvr.version}/${gvr.resource}`, () =>
      clientFor(this.rest, mapping),
    ) as unknown as TypedClient<T>;
  }

  forGVK<T extends KubeObject = KubeObject>(gvk: GroupVersionKind): TypedClient<T> {
    const mapping = this.mapper.forKind(gvk.group, gvk.version, gvk.kind);
    if (!mapping) {
      throw new Error(`no resource for kind ${gvk.kind} in ${gvk.group || 'core'}/${gvk.version}`);
    }
    return this.forGVR<T>(mapping.gvr);
  }

  /** The client of an object's apiVersion and kind. */
  forObject<T extends KubeObject>(obj: T): TypedClient<T> {
    const [group, version] = splitAPIVersion(obj.apiVersion ?? '');
    return this.forGVK<T>({ group, version, kind: obj.kind ?? '' });
  }

  private cached(key: string, make: () => TypedClient<any>): TypedClient<KubeObject> {
    let client = this.clients.get(key);
    if (!client) {
      client = make();
      this.clients.set(key, client);
    }
    return client;
  }
}
