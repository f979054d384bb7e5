import type { KindDeclaration, ObjectOf } from '@orch/api';
import type { RestClient } from '../rest/RestClient';
import type { KubeObject } from '../types';
import { resolveTarget, TypedClient, type ResourceTarget } from './TypedClient';

export interface ClientForOptions {
  /** Version to talk (a declaration's preferred version when absent). */
  version?: string;
  /** Namespace the client is bound to. */
  namespace?: string;
}

/** The object type of a target: the declared type for a declaration, any object otherwise. */
export type ObjectOfTarget<D> = D extends KindDeclaration<any> ? ObjectOf<D> & KubeObject : KubeObject;

/**
 * A typed client for one resource: `clientFor(rest, PodKind)` is a `TypedClient<Pod>`;
 * a RESTMapping or a bare ResourceDescriptor gives an untyped one.
 */
export function clientFor<D extends ResourceTarget>(
  rest: RestClient,
  target: D,
  options: ClientForOptions = {},
): TypedClient<ObjectOfTarget<D>> {
  return new TypedClient<ObjectOfTarget<D>>(rest, resolveTarget(target, options.version), options.namespace);
}
