import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';

interface PriorityClass {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

/** The classes every cluster has. */
export const systemPriorityClasses: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** Priority: a pod's priority comes from its PriorityClass (or the global default, else 0). */
export class PriorityAdmission implements AdmissionPlugin {
  readonly name = 'Priority';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return;
    const spec = (a.object.spec ?? {}) as {
      priorityClassName?: string;
      priority?: number;
      preemptionPolicy?: string;
    };
    let value = 0;
    let policy: string | undefined;
    if (spec.priorityClassName) {
      const pc = (await this.lookup.get(
        'scheduling.k8s.io',
        'priorityclasses',
        '',
        spec.priorityClassName,
      )) as (PriorityClass & { metadata: unknown }) | undefined;
      if (pc) {
        value = pc.value ?? 0;
        policy = pc.preemptionPolicy;
      } else if (systemPriorityClasses[spec.priorityClassName] !== undefined) {
        value = systemPriorityClasses[spec.priorityClassName]!;
      } else {
        throw admissionForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
      }
    } else {
      const all = (await this.lookup.list(
        'scheduling.k8s.io',
        'priorityclasses',
        '',
      )) as unknown as PriorityClass[];
      const global = all.find((pc) => pc.globalDefault);
      if (global) {
        value = global.value ?? 0;
        policy = global.preemptionPolicy;
        spec.priorityClassName = (global as unknown as { metadata: { name: string } }).metadata.name;
      }
    }
    if (spec.priority !== undefined && spec.priority !== value) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
      );
    }
    spec.priority = value;
    if (policy && !spec.preemptionPolicy) spec.preemptionPolicy = policy;
    a.object.spec = spec;
  }
}
