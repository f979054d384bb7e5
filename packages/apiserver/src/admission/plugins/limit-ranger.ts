import { parseQuantity, type Quantity } from '@orch/api';
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
  maxLimitRequestRatio?: ResourceList;
}

interface Container {
  name: string;
  restartPolicy?: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
}

interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
}

/** A resource list's quantities, parsed. */
type Quantities = Map<string, Quantity>;

function quantities(list: ResourceList | undefined): Quantities {
  return new Map(Object.entries(list ?? {}).map(([k, v]) => [k, parseQuantity(v)]));
}

/** Adds `add` into `into`. */
function addInto(into: Quantities, add: Quantities): void {
  for (const [k, q] of add) into.set(k, into.get(k)?.add(q) ?? q);
}

/** Raises `into` to `other` where `other` is larger. */
function maxInto(into: Quantities, other: Quantities): void {
  for (const [k, q] of other) {
    const have = into.get(k);
    if (!have || have.cmp(q) < 0) into.set(k, q);
  }
}

/**
 * A pod's total requests or limits as LimitRanger counts them: the sum over its containers and
 * sidecar (restartable) init containers, or the largest init container when that is more.
 */
function podTotal(spec: PodSpec, of: 'requests' | 'limits'): Quantities {
  const total: Quantities = new Map();
  for (const c of spec.containers ?? []) addInto(total, quantities(c.resources?.[of]));
  const sidecars: Quantities = new Map();
  const init: Quantities = new Map();
  for (const c of spec.initContainers ?? []) {
    const own = quantities(c.resources?.[of]);
    let counted: Quantities;
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      counted = sidecars;
    } else {
      counted = new Map(own);
      addInto(counted, sidecars);
    }
    maxInto(init, counted);
  }
  maxInto(total, init);
  return total;
}

/** Go's %f: six decimals. */
const ratioText = (n: number): string => n.toFixed(6);

/**
 * The violations of one item's min, max and maxLimitRequestRatio by requests and limits, in
 * Kubernetes' words, for a container or (type Pod) a pod's totals.
 */
function violations(item: LimitRangeItem, type: string, requests: Quantities, limits: Quantities): string[] {
  const out: string[] = [];
  for (const [r, text] of Object.entries(item.min ?? {})) {
    const min = parseQuantity(text);
    const shown = String(min);
    const req = requests.get(r);
    const lim = limits.get(r);
    if (!req) out.push(`minimum ${r} usage per ${type} is ${shown}.  No request is specified`);
    else if (req.cmp(min) < 0) out.push(`minimum ${r} usage per ${type} is ${shown}, but request is ${req}`);
    else if (lim && lim.cmp(min) < 0)
      out.push(`minimum ${r} usage per ${type} is ${shown}, but limit is ${lim}`);
  }
  for (const [r, text] of Object.entries(item.max ?? {})) {
    const max = parseQuantity(text);
    const shown = String(max);
    const req = requests.get(r);
    const lim = limits.get(r);
    if (!lim) out.push(`maximum ${r} usage per ${type} is ${shown}.  No limit is specified`);
    else if (lim.cmp(max) > 0) out.push(`maximum ${r} usage per ${type} is ${shown}, but limit is ${lim}`);
    else if (req && req.cmp(max) > 0)
      out.push(`maximum ${r} usage per ${type} is ${shown}, but request is ${req}`);
  }
  for (const [r, text] of Object.entries(item.maxLimitRequestRatio ?? {})) {
    const enforced = parseQuantity(text);
    const shown = String(enforced);
    const req = requests.get(r);
    const lim = limits.get(r);
    if (!req || req.sign() === 0) {
      out.push(
        `${r} max limit to request ratio per ${type} is ${shown}, but no request is specified or request is 0`,
      );
    } else if (!lim || lim.sign() === 0) {
      out.push(
        `${r} max limit to request ratio per ${type} is ${shown}, but no limit is specified or limit is 0`,
      );
    } else {
      const ratio = lim.asApproximateFloat64() / req.asApproximateFloat64();
      if (ratio > enforced.asApproximateFloat64()) {
        out.push(
          `${r} max limit to request ratio per ${type} is ${shown}, but provided ratio is ${ratioText(ratio)}`,
        );
      }
    }
  }
  return out;
}

/**
 * LimitRanger: a new pod's containers get their namespace's default requests and limits (recorded in
 * the kubernetes.io/limit-ranger annotation) and must stay within the LimitRanges' min, max and
 * limit-to-request ratios, per container and per pod.
 */
export class LimitRanger implements AdmissionPlugin {
  readonly name = 'LimitRanger';

  constructor(private readonly lookup: ObjectLookup) {}

  handles(operation: Operation): boolean {
    // pod containers cannot change after creation, so updates have nothing to default or check
    return operation === 'CREATE';
  }

  private async items(namespace: string): Promise<LimitRangeItem[]> {
    const ranges = await this.lookup.list('', 'limitranges', namespace);
    return ranges.flatMap((r) => (r.spec as { limits?: LimitRangeItem[] } | undefined)?.limits ?? []);
  }

  private podSpec(a: AdmissionAttributes): PodSpec | undefined {
    if (a.declaration.group !== '' || a.resource !== 'pods' || a.subresource || !a.object) return undefined;
    return (a.object.spec ?? {}) as PodSpec;
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const spec = this.podSpec(a);
    if (!spec) return;
    const containerItems = (await this.items(a.namespace)).filter((i) => i.type === 'Container');
    if (!containerItems.length) return;
    const defaults: { limits: ResourceList; requests: ResourceList } = { limits: {}, requests: {} };
    for (const item of containerItems) {
      Object.assign(defaults.requests, item.defaultRequest);
      Object.assign(defaults.limits, item.default);
    }
    const set: string[] = [];
    const merge = (c: Container, what: string): void => {
      const resources = (c.resources ??= {});
      for (const [of, word] of [
        ['requests', 'request'],
        ['limits', 'limit'],
      ] as const) {
        const list = (resources[of] ??= {});
        const added = Object.keys(defaults[of])
          .filter((r) => list[r] === undefined)
          .sort();
        for (const r of added) list[r] = defaults[of][r]!;
        if (added.length) set.push(`${added.join(', ')} ${word} for ${what} ${c.name}`);
      }
    };
    for (const c of spec.containers ?? []) merge(c, 'container');
    for (const c of spec.initContainers ?? []) merge(c, 'init container');
    if (set.length) {
      a.object!.metadata.annotations = {
        ...(a.object!.metadata.annotations ?? {}),
        'kubernetes.io/limit-ranger': `LimitRanger plugin set: ${set.join('; ')}`,
      };
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const spec = this.podSpec(a);
    if (!spec) return;
    const problems: string[] = [];
    for (const item of await this.items(a.namespace)) {
      if (item.type === 'Container') {
        for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
          const requests = quantities(c.resources?.requests);
          problems.push(...violations(item, 'Container', requests, quantities(c.resources?.limits)));
        }
      } else if (item.type === 'Pod') {
        problems.push(...violations(item, 'Pod', podTotal(spec, 'requests'), podTotal(spec, 'limits')));
      }
    }
    // one problem as it is, several as Go's aggregate error prints them
    if (problems.length === 1) throw admissionForbidden(a, problems[0]!);
    if (problems.length > 1) throw admissionForbidden(a, `[${problems.join(', ')}]`);
  }
}
