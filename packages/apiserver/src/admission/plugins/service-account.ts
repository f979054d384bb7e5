import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';

interface PodSpec {
  serviceAccountName?: string;
  serviceAccount?: string;
}

/** ServiceAccount: a pod runs as `default` unless it names an account, and the account must exist. */
export class ServiceAccountAdmission implements AdmissionPlugin {
  readonly name = 'ServiceAccount';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  private isPod(a: AdmissionAttributes): boolean {
    return a.declaration.group === '' && a.resource === 'pods' && !a.subresource && Boolean(a.object);
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (!this.isPod(a)) return;
    const spec = (a.object!.spec ?? {}) as PodSpec;
    const name = spec.serviceAccountName || spec.serviceAccount || 'default';
    spec.serviceAccountName = name;
    spec.serviceAccount = name;
    a.object!.spec = spec;
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!this.isPod(a)) return;
    const name = ((a.object!.spec ?? {}) as PodSpec).serviceAccountName ?? 'default';
    const sa = await this.lookup.get('', 'serviceaccounts', a.namespace, name);
    if (!sa) {
      throw admissionForbidden(
        a,
        `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`,
      );
    }
  }
}
