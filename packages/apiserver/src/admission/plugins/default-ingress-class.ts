import { DEFAULT_INGRESS_CLASS_ANNOTATION, INGRESS_CLASS_ANNOTATION } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import type { ObjectLookup } from '../object-lookup';
import { newestObject } from './newest-object';

interface IngressClass {
  metadata: { name?: string; creationTimestamp?: string; annotations?: Record<string, string> };
}

/**
 * DefaultIngressClass: a new Ingress that names no class, by field or by the older annotation, gets
 * the default IngressClass's name; with several defaults, the newest (then the first by name).
 */
export class DefaultIngressClass implements AdmissionPlugin {
  readonly name = 'DefaultIngressClass';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (
      a.declaration.group !== 'networking.k8s.io' ||
      a.resource !== 'ingresses' ||
      a.subresource ||
      !a.object
    )
      return;
    const spec = (a.object.spec ?? {}) as { ingressClassName?: string };
    if (spec.ingressClassName !== undefined) return;
    if (a.object.metadata.annotations?.[INGRESS_CLASS_ANNOTATION] !== undefined) return;
    const classes = (await this.lookup.list('networking.k8s.io', 'ingressclasses', '')) as IngressClass[];
    const chosen = newestObject(
      classes.filter((c) => c.metadata.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true'),
    );
    if (!chosen) return;
    a.object.spec = { ...spec, ingressClassName: chosen.metadata.name };
  }
}
