import { DEFAULT_INGRESS_CLASS_ANNOTATION, INGRESS_CLASS_ANNOTATION } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import type { ObjectLookup } from '../object-lookup';

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
    const defaults = classes
      .filter((c) => c.metadata.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true')
      .sort((x, y) => {
        const tx = Date.parse(x.metadata.creationTimestamp ?? '') || 0;
        const ty = Date.parse(y.metadata.creationTimestamp ?? '') || 0;
        return tx === ty ? (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '') : ty - tx;
      });
    if (!defaults.length) return;
    a.object.spec = { ...spec, ingressClassName: defaults[0]!.metadata.name };
  }
}
