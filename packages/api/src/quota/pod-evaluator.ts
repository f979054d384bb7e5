import { isPodTerminal } from '../kinds/core/pod-status';
import { newQuantity, type Quantity } from '../util/quantity';
import { objectCountResourceName } from './object-count-evaluator';
import type { QuotaEvaluator, QuotaObject, ScopeRequirement } from './quota-evaluator';
import { addResourceLists, parseResourceList, type ResourceList } from './resource-list';

interface QuotaContainer {
  restartPolicy?: string | null;
  resources?: { requests?: Record<string, unknown> | null; limits?: Record<string, unknown> | null } | null;
}

interface QuotaPod extends QuotaObject {
  spec?: {
    containers?: QuotaContainer[] | null;
    initContainers?: QuotaContainer[] | null;
    overhead?: Record<string, unknown> | null;
    activeDeadlineSeconds?: number | null;
    priorityClassName?: string | null;
  } | null;
  status?: { phase?: string | null } | null;
}

const podCount = objectCountResourceName('', 'pods');

/** The resources the pod evaluator measures by name. */
const podResources = new Set([
  podCount,
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);

/** Resources a quota on cpu or memory requires every container to state (a compatibility rule). */
const explicitlyRequired = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

/** Native resources have no domain or the kubernetes.io domain. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** Extended resources: domain-qualified, not native, not themselves a `requests.` name. */
const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.');

/** `requests.<extended resource>`: how a quota names an extended resource. */
const isExtendedForQuota = (name: string): boolean =>
  name.startsWith('requests.') && isExtended(name.slice('requests.'.length));

/** Raises `into` to `other` where `other` is larger. */
function maxInto(into: ResourceList, other: ResourceList): void {
  for (const [k, q] of Object.entries(other)) {
    const have = into[k];
    if (!have || have.cmp(q) < 0) into[k] = q;
  }
}

/**
 * A pod's total requests or limits: the sum over its containers and restartable (sidecar) init
 * containers, or the largest need of an init container (with the sidecars started before it) when
 * that is more; the pod's overhead is added to every request, and to the limits it has.
 */
export function podResourceTotal(pod: QuotaPod, of: 'requests' | 'limits'): ResourceList {
  const spec = pod.spec ?? {};
  let total: ResourceList = {};
  for (const c of spec.containers ?? [])
    total = addResourceLists(total, parseResourceList(c.resources?.[of]));
  let sidecars: ResourceList = {};
  const init: ResourceList = {};
  for (const c of spec.initContainers ?? []) {
    const own = parseResourceList(c.resources?.[of]);
    if (c.restartPolicy === 'Always') {
      total = addResourceLists(total, own);
      sidecars = addResourceLists(sidecars, own);
      maxInto(init, sidecars);
    } else maxInto(init, addResourceLists(own, sidecars));
  }
  maxInto(total, init);
  const overhead = parseResourceList(spec.overhead);
  if (of === 'requests') return addResourceLists(total, overhead);
  for (const [k, q] of Object.entries(overhead)) if (total[k]) total[k] = total[k]!.add(q);
  return total;
}

/** The quota names requests and limits are charged under (podComputeUsageHelper). */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = { pods: newQuantity(1, 'DecimalSI') };
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests[name];
    if (request) {
      out[name] = request;
      out[`requests.${name}`] = request;
    }
    const limit = limits[name];
    if (limit) out[`limits.${name}`] = limit;
  }
  for (const [name, request] of Object.entries(requests)) {
    if (name.startsWith('hugepages-')) {
      out[name] = request;
      out[`requests.${name}`] = request;
    }
    if (isExtended(name)) out[`requests.${name}`] = request;
  }
  return out;
}

/** Whether quota still charges the pod's compute resources: not finished, not stuck past its deletion. */
export function podCountsForQuota(pod: QuotaPod, now: number): boolean {
  if (isPodTerminal(pod)) return false;
  const deletion = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion && grace !== undefined && grace !== null) {
    if (now > Date.parse(deletion) + grace * 1000) return false;
  }
  return true;
}

/** A pod with an active deadline (the Terminating scope). */
const isTerminating = (pod: QuotaPod): boolean => {
  const deadline = pod.spec?.activeDeadlineSeconds;
  return deadline !== undefined && deadline !== null && deadline >= 0;
};

/** A pod of the BestEffort QoS class: no container requests or limits any cpu or memory. */
export function isBestEffortPod(pod: QuotaPod): boolean {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const positive = (list: Record<string, unknown> | null | undefined): boolean =>
    ['cpu', 'memory'].some((r) => {
      const q: Quantity | undefined = parseResourceList(list)[r];
      return q !== undefined && q.sign() > 0;
    });
  return !containers.some((c) => positive(c.resources?.requests) || positive(c.resources?.limits));
}

/** A PriorityClass requirement against the pod's priorityClassName ("" when it has none). */
function matchesPriorityClass(pod: QuotaPod, r: ScopeRequirement): boolean {
  const name = pod.spec?.priorityClassName ?? '';
  const values = r.values ?? [];
  switch (r.operator) {
    case 'Exists':
      return name !== '';
    case 'In':
      return values.includes(name);
    case 'NotIn':
      return !values.includes(name);
    default:
      return false;
  }
}

/** The pod evaluator: object counts, compute requests and limits, and the pod scopes. */
export const podEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'pods',
  handles: (operation) => operation === 'CREATE',
  matchingResources: (input) =>
    input.filter(
      (n) =>
        podResources.has(n) ||
        n.startsWith('hugepages-') ||
        n.startsWith('requests.hugepages-') ||
        isExtendedForQuota(n),
    ),
  matchesScope: (r, obj) => {
    const pod = obj as QuotaPod;
    switch (r.scopeName) {
      case 'Terminating':
        return isTerminating(pod);
      case 'NotTerminating':
        return !isTerminating(pod);
      case 'BestEffort':
        return isBestEffortPod(pod);
      case 'NotBestEffort':
        return !isBestEffortPod(pod);
      case 'PriorityClass':
        return matchesPriorityClass(pod, r);
      default:
        return false;
    }
  },
  constraints: (required, obj) => {
    const pod = obj as QuotaPod;
    const needed = required.filter((r) => explicitlyRequired.has(r));
    if (!needed.length) return undefined;
    const missing = new Set<string>();
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      const has = computeUsage(
        parseResourceList(c.resources?.requests),
        parseResourceList(c.resources?.limits),
      );
      for (const r of needed) if (!has[r]) missing.add(r);
    }
    return missing.size ? `must specify ${[...missing].sort().join(',')}` : undefined;
  },
  usage: (obj, now) => {
    const pod = obj as QuotaPod;
    const out: ResourceList = { [podCount]: newQuantity(1, 'DecimalSI') };
    if (!podCountsForQuota(pod, now)) return out;
    return addResourceLists(
      out,
      computeUsage(podResourceTotal(pod, 'requests'), podResourceTotal(pod, 'limits')),
    );
  },
};
