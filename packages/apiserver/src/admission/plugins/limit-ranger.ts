import { parseQuantity } from '@orch/api';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../admission';
import { admissionForbidden } from '../forbidden';
import type { ObjectLookup } from '../object-lookup';

type ResourceList = Record<string, string>;

interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
}

interface Container {
  name: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
}

function less(a: string, b: string): boolean {
  return parseQuantity(a).cmp(parseQuantity(b)) < 0;
}

/** LimitRanger: containers get the namespace's default requests and limits and must stay within min/max. */
export class LimitRanger implements AdmissionPlugin {
  readonly name = 'LimitRanger';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    return operation === 'CREATE';
  }

  private async items(namespace: string): Promise<LimitRangeItem[]> {
    const ranges = await this.lookup.list('', 'limitranges', namespace);
    return ranges.flatMap((r) =>
      ((r.spec as { limits?: LimitRangeItem[] } | undefined)?.limits ?? []).filter(
        (i) => i.type === 'Container',
      ),
    );
  }

  private containers(a: AdmissionAttributes): Container[] | undefined {
    if (a.declaration.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return undefined;
    const spec = (a.object.spec ?? {}) as { containers?: Container[]; initContainers?: Container[] };
    return [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const containers = this.containers(a);
    if (!containers) return;
    const items = await this.items(a.namespace);
    if (!items.length) return;
    const set: string[] = [];
    for (const c of containers) {
      const resources = (c.resources ??= {});
      for (const item of items) {
        for (const [r, q] of Object.entries(item.default ?? {})) {
          resources.limits ??= {};
          if (resources.limits[r] === undefined) {
            resources.limits[r] = q;
            set.push(`${r} limit for container ${c.name}`);
          }
        }
        for (const [r, q] of Object.entries(item.defaultRequest ?? {})) {
          resources.requests ??= {};
          if (resources.requests[r] === undefined) {
            resources.requests[r] = q;
            set.push(`${r} request for container ${c.name}`);
          }
        }
      }
    }
    if (set.length) {
      a.object!.metadata.annotations = {
        ...(a.object!.metadata.annotations ?? {}),
        'kubernetes.io/limit-ranger': `LimitRanger plugin set: ${set.join('; ')}`,
      };
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const containers = this.containers(a);
    if (!containers) return;
    const items = await this.items(a.namespace);
    const problems: string[] = [];
    for (const item of items) {
      for (const c of containers) {
        const req = c.resources?.requests ?? {};
        const lim = c.resources?.limits ?? {};
        for (const [r, min] of Object.entries(item.min ?? {})) {
          if (req[r] === undefined)
            problems.push(`minimum ${r} usage per Container is ${min}.  No request is specified`);
          else if (less(req[r]!, min))
            problems.push(`minimum ${r} usage per Container is ${min}, but request is ${req[r]}`);
        }
        for (const [r, max] of Object.entries(item.max ?? {})) {
          if (lim[r] === undefined)
            problems.push(`maximum ${r} usage per Container is ${max}.  No limit is specified`);
          else if (less(max, lim[r]!))
            problems.push(`maximum ${r} usage per Container is ${max}, but limit is ${lim[r]}`);
        }
      }
    }
    if (problems.length) throw admissionForbidden(a, problems.join(', '));
  }
}
