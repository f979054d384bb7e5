import { parseQuantity, type Node, type Pod } from '@orch/api';

/** Kubernetes' default CPU request (millicores) assumed for scoring a container without one. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** Kubernetes' default memory request (bytes) assumed for scoring a container without one. */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** An amount of every resource the scheduler accounts for. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  allowedPodNumber: number;
  /** Extended, huge-page and other scalar resources by name; undefined when there are none. */
  scalar: Map<string, number> | undefined;
}

/** What a pod asks for: its effective requests and the non-zero variant used for scoring. */
export interface PodRequests {
  resource: Resource;
  nonZeroMilliCPU: number;
  nonZeroMemory: number;
}

type QuantityMap = Readonly<Record<string, string | number>> | undefined;

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: undefined };
}

/** Parses a resource list (capacity, allocatable, requests) into a Resource. */
export function resourceFromList(list: QuantityMap): Resource {
  const r = emptyResource();
  if (!list) return r;
  for (const name of Object.keys(list)) {
    const q = parseQuantity(String(list[name]));
    switch (name) {
      case 'cpu':
        r.milliCPU = q.milliValue();
        break;
      case 'memory':
        r.memory = q.value();
        break;
      case 'ephemeral-storage':
        r.ephemeralStorage = q.value();
        break;
      case 'pods':
        r.allowedPodNumber = q.value();
        break;
      default:
        (r.scalar ??= new Map()).set(name, q.value());
    }
  }
  return r;
}

/** target += r (pod counts excluded). */
export function addResource(target: Resource, r: Resource, sign = 1): void {
  target.milliCPU += sign * r.milliCPU;
  target.memory += sign * r.memory;
  target.ephemeralStorage += sign * r.ephemeralStorage;
  if (r.scalar) {
    const scalar = (target.scalar ??= new Map());
    for (const [name, v] of r.scalar) scalar.set(name, (scalar.get(name) ?? 0) + sign * v);
  }
}

/** target = max(target, r) per resource. */
function maxResource(target: Resource, r: Resource): void {
  target.milliCPU = Math.max(target.milliCPU, r.milliCPU);
  target.memory = Math.max(target.memory, r.memory);
  target.ephemeralStorage = Math.max(target.ephemeralStorage, r.ephemeralStorage);
  if (r.scalar) {
    const scalar = (target.scalar ??= new Map());
    for (const [name, v] of r.scalar) scalar.set(name, Math.max(scalar.get(name) ?? 0, v));
  }
}

function hasRequest(list: QuantityMap, name: string): boolean {
  return list !== undefined && Object.prototype.hasOwnProperty.call(list, name);
}

function computePodRequests(pod: Pod, podOverhead: boolean): PodRequests {
  const spec = pod.spec;
  const resource = emptyResource();
  let nonZeroMilliCPU = 0;
  let nonZeroMemory = 0;
  for (const c of spec?.containers ?? []) {
    const requests = c.resources?.requests as QuantityMap;
    const r = resourceFromList(requests);
    addResource(resource, r);
    nonZeroMilliCPU += hasRequest(requests, 'cpu') ? r.milliCPU : DEFAULT_MILLI_CPU_REQUEST;
    nonZeroMemory += hasRequest(requests, 'memory') ? r.memory : DEFAULT_MEMORY_REQUEST;
  }
  // An init container runs alone: the pod needs the largest of them or the sum of the app containers.
  for (const c of spec?.initContainers ?? []) {
    const requests = c.resources?.requests as QuantityMap;
    const r = resourceFromList(requests);
    maxResource(resource, r);
    nonZeroMilliCPU = Math.max(
      nonZeroMilliCPU,
      hasRequest(requests, 'cpu') ? r.milliCPU : DEFAULT_MILLI_CPU_REQUEST,
    );
    nonZeroMemory = Math.max(
      nonZeroMemory,
      hasRequest(requests, 'memory') ? r.memory : DEFAULT_MEMORY_REQUEST,
    );
  }
  if (podOverhead && spec?.overhead) {
    const overhead = resourceFromList(spec.overhead as QuantityMap);
    addResource(resource, overhead);
    nonZeroMilliCPU += overhead.milliCPU;
    nonZeroMemory += overhead.memory;
  }
  return { resource, nonZeroMilliCPU, nonZeroMemory };
}

/** The feature gate under which a pod's spec.overhead counts in its requests. */
export const POD_OVERHEAD = 'PodOverhead';

/** Per pod: its requests without the overhead, and with it. */
const requestsCache = [new WeakMap<Pod, PodRequests>(), new WeakMap<Pod, PodRequests>()] as const;

/**
 * A pod's effective requests: the sum of its containers', raised to the largest init container's,
 * plus the pod overhead when `podOverhead` (the PodOverhead feature gate) says so. Computed once
 * per pod object.
 */
export function podRequests(pod: Pod, podOverhead: boolean): PodRequests {
  // The same pod is asked for on every node of a cycle: check the last one before the map.
  if (pod === lastPod && podOverhead === lastOverhead) return lastRequests!;
  const cache = requestsCache[podOverhead ? 1 : 0];
  let r = cache.get(pod);
  if (r === undefined) {
    r = computePodRequests(pod, podOverhead);
    cache.set(pod, r);
  }
  lastPod = pod;
  lastOverhead = podOverhead;
  lastRequests = r;
  return r;
}

let lastPod: Pod | undefined;
let lastOverhead = false;
let lastRequests: PodRequests | undefined;

const allocatableCache = new WeakMap<Node, Resource>();

/** A node's allocatable resources (capacity when allocatable is not reported). */
export function nodeAllocatable(node: Node): Resource {
  let r = allocatableCache.get(node);
  if (r === undefined) {
    r = resourceFromList((node.status?.allocatable ?? node.status?.capacity) as QuantityMap);
    allocatableCache.set(node, r);
  }
  return r;
}
