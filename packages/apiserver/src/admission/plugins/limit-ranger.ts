import { aggregateText, parseQuantity, type Quantity } from '@orch/api';
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

/** A check of one enforced quantity: the violation in Kubernetes' words, or undefined. */
type Constraint = (
  what: string,
  enforced: Quantity,
  request: Quantity | undefined,
  limit: Quantity | undefined,
) => string | undefined;

/** Kubernetes' minConstraint: a request is required and neither it nor the limit may be below `enforced`. */
const minConstraint: Constraint = (what, min, req, lim) => {
  if (!req) return `minimum ${what} is ${min}.  No request is specified`;
  if (req.cmp(min) < 0) return `minimum ${what} is ${min}, but request is ${req}`;
  if (lim && lim.cmp(min) < 0) return `minimum ${what} is ${min}, but limit is ${lim}`;
  return undefined;
};

/** Kubernetes' maxConstraint: a limit is required and neither it nor the request may exceed `enforced`. */
const maxConstraint: Constraint = (what, max, req, lim) => {
  if (!lim) return `maximum ${what} is ${max}.  No limit is specified`;
  if (lim.cmp(max) > 0) return `maximum ${what} is ${max}, but limit is ${lim}`;
  if (req && req.cmp(max) > 0) return `maximum ${what} is ${max}, but request is ${req}`;
  return undefined;
};

/** Kubernetes' limitRequestRatioConstraint: limit / request may not exceed `enforced`. */
const ratioConstraint: Constraint = (what, enforced, req, lim) => {
  if (!req || req.sign() === 0) return `${what} is ${enforced}, but no request is specified or request is 0`;
  if (!lim || lim.sign() === 0) return `${what} is ${enforced}, but no limit is specified or limit is 0`;
  const ratio = lim.asApproximateFloat64() / req.asApproximateFloat64();
  return ratio > enforced.asApproximateFloat64()
    ? `${what} is ${enforced}, but provided ratio is ${ratioText(ratio)}`
    : undefined;
};

/**
 * The violations of one item's min, max and maxLimitRequestRatio by requests and limits, in
 * Kubernetes' words, for a container or (type Pod) a pod's totals.
 */
function violations(item: LimitRangeItem, type: string, requests: Quantities, limits: Quantities): string[] {
  const checks: [ResourceList | undefined, Constraint, (r: string) => string][] = [
    [item.min, minConstraint, (r) => `${r} usage per ${type}`],
    [item.max, maxConstraint, (r) => `${r} usage per ${type}`],
    [item.maxLimitRequestRatio, ratioConstraint, (r) => `${r} max limit to request ratio per ${type}`],
  ];
  const out: string[] = [];
  for (const [list, check, what] of checks) {
    for (const [r, text] of Object.entries(list ?? {})) {
      const violation = check(what(r), parseQuantity(text), requests.get(r), limits.get(r));
      if (violation) out.push(violation);
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
    if (problems.length) throw admissionForbidden(a, aggregateText(problems));
  }
}
