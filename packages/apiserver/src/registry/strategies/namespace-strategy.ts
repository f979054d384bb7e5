import { FINALIZER_KUBERNETES } from '@orch/api';
import { statusErrors } from '../../errors/status-error';
import type { SubresourceHandler } from '../custom-handlers';
import { clone, type ApiObject } from '../object';
import { Strategy } from '../strategy';

interface NamespaceSpec {
  finalizers?: string[];
}

/** The label every namespace carries with its own name (Kubernetes' LabelMetadataName, GA in 1.22). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** Sets the name label, which no write can change or remove (Kubernetes sets it in Canonicalize). */
function labelWithName(obj: ApiObject): void {
  obj.metadata.labels = { ...obj.metadata.labels, [NAMESPACE_NAME_LABEL]: obj.metadata.name ?? '' };
}

/**
 * Namespaces: Active on create; a delete makes them Terminating until the namespace controller has
 * emptied them and removed its finalizer through namespaces/finalize.
 */
export class NamespaceStrategy extends Strategy {
  /**
   * A new namespace is Active, carries the `kubernetes` finalizer the namespace controller removes
   * and is labelled with its name.
   */
  override prepareForCreate(obj: ApiObject, now: Date): void {
    super.prepareForCreate(obj, now);
    labelWithName(obj);
    obj.status = { phase: 'Active' };
    const spec = ((obj.spec as NamespaceSpec | undefined) ?? {}) as NamespaceSpec;
    const finalizers = spec.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_KUBERNETES)) spec.finalizers = [...finalizers, FINALIZER_KUBERNETES];
    obj.spec = spec;
  }

  override prepareForUpdate(obj: ApiObject, old: ApiObject, subresource = ''): void {
    super.prepareForUpdate(obj, old, subresource);
    labelWithName(obj);
    // spec.finalizers change only through the finalize subresource
    if (!subresource) obj.spec = old.spec;
  }

  override beforeDelete(obj: ApiObject, _now: Date): boolean {
    const finalizers = ((obj.spec ?? {}) as NamespaceSpec).finalizers ?? [];
    obj.status = { ...((obj.status as object) ?? {}), phase: 'Terminating' };
    return finalizers.length > 0;
  }

  override readonly subresources: Record<string, SubresourceHandler> = {
    finalize: async (store, request) => {
      if (request.verb !== 'update')
        throw statusErrors.methodNotAllowed(
          'the server does not allow this method on the requested resource',
        );
      const body = request.body;
      const finalizers = ((body?.spec ?? {}) as NamespaceSpec).finalizers ?? [];
      const { object } = await store.update(
        request.scope,
        request.name,
        (current) => {
          if (!current) throw statusErrors.notFound({ group: '', resource: 'namespaces' }, request.name);
          const ns = clone(current);
          ns.spec = { ...((ns.spec as object) ?? {}), finalizers };
          if (!finalizers.length) delete (ns.spec as NamespaceSpec).finalizers;
          if (body?.metadata?.resourceVersion) ns.metadata.resourceVersion = body.metadata.resourceVersion;
          else delete ns.metadata.resourceVersion;
          return ns;
        },
        request.options,
        'finalize',
      );
      return { code: 200, object };
    },
  };

  /** A Terminating namespace whose finalizers are all gone is deleted. */
  override finished(obj: ApiObject): boolean {
    const finalizers = ((obj.spec ?? {}) as NamespaceSpec).finalizers ?? [];
    return (
      Boolean(obj.metadata.deletionTimestamp) &&
      finalizers.length === 0 &&
      !(obj.metadata.finalizers ?? []).length
    );
  }
}
