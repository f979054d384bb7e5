import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';
import type { ApiObject } from '../../registry/object';

interface PriorityClass {
  metadata: { name?: string };
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

interface PodSpec {
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: string;
}

/**
 * Priority: a new pod's priority and preemption policy come from its PriorityClass, or from the
 * global default class (else 0 and PreemptLowerPriority), and a pod may not state others; updates keep
 * what creation set. Only one PriorityClass may be the global default. The preemption policy is set
 * only with the NonPreemptingPriority feature gate on (`preemptionPolicies`).
 */
export class PriorityAdmission implements AdmissionPlugin {
  readonly name = 'Priority';

  constructor(
    private readonly lookup: ObjectLookup,
    private readonly preemptionPolicies = true,
  ) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return;
    const spec = (a.object.spec ?? {}) as PodSpec;
    a.object.spec = spec;
    if (a.operation === 'UPDATE') {
      // creation set them; an update that leaves them out keeps them (validation refuses changes)
      const old = (a.oldObject?.spec ?? {}) as PodSpec;
      if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined)
        spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    let value: number;
    let policy: string | undefined;
    if (!spec.priorityClassName) {
      // without a global default class: priority 0, and lower priorities may be preempted
      const global = await this.globalDefault();
      if (global) spec.priorityClassName = global.metadata.name;
      value = global?.value ?? 0;
      policy = global ? global.preemptionPolicy : 'PreemptLowerPriority';
    } else {
      const pc = (await this.lookup.get(
        'scheduling.k8s.io',
        'priorityclasses',
        '',
        spec.priorityClassName,
      )) as PriorityClass | undefined;
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
      value = pc.value ?? 0;
      policy = pc.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== value) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
      );
    }
    spec.priority = value;
    if (policy !== undefined && this.preemptionPolicies) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(
          a,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = policy;
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.declaration.group !== 'scheduling.k8s.io' || a.resource !== 'priorityclasses' || a.subresource)
      return;
    if (!(a.object as (ApiObject & PriorityClass) | undefined)?.globalDefault) return;
    const global = await this.globalDefault();
    if (global && (a.operation === 'CREATE' || global.metadata.name !== a.name)) {
      throw admissionForbidden(
        a,
        `PriorityClass ${global.metadata.name} is already marked as default. Only one default can exist`,
      );
    }
  }

  /** The global default class; the lowest of several (which only a race can make). */
  private async globalDefault(): Promise<PriorityClass | undefined> {
    const all = (await this.lookup.list('scheduling.k8s.io', 'priorityclasses', '')) as PriorityClass[];
    let found: PriorityClass | undefined;
    for (const pc of all) {
      if (pc.globalDefault && (!found || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
    }
    return found;
  }
}
