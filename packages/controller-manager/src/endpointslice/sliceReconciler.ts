import { isDeepStrictEqual } from 'node:util';
import {
  cloneJson,
  newControllerRef,
  parseIPSloppy,
  type EndpointSlice,
  type EndpointSliceEndpoint,
  type EndpointSlicePort,
  type Node,
  type Pod,
  type Service,
} from '@orch/api';
import {
  endpointHostname,
  endpointReady,
  findPort,
  podIPsOfFamily,
  shouldPodBeInEndpoints,
} from '../endpoint/endpointSubsets';

/** The label naming the service of an EndpointSlice (discovery.LabelServiceName). */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** The label naming the controller managing an EndpointSlice (discovery.LabelManagedBy). */
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
/** The value of {@link MANAGED_BY_LABEL} on the slices this controller manages. */
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** Node labels copied into the topology of the endpoints of the node's pods, beside its hostname. */
const NODE_TOPOLOGY_LABELS = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'];
const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';

type AddressType = 'IPv4' | 'IPv6';

/** What the reconciler needs beside the service, its pods and its slices. */
export interface SliceReconcileOptions {
  /** The most endpoints one slice holds (--max-endpoints-per-slice). */
  maxEndpointsPerSlice: number;
  /** The node a pod runs on, for the topology of its endpoints; undefined when unknown. */
  node(name: string): Node | undefined;
}

/** The writes that bring a service's slices to the desired state. */
export interface SlicePlan {
  /** New slices (generateName set, no name). */
  create: EndpointSlice[];
  /** Changed slices, each from the stored one (its name and resourceVersion kept). */
  update: EndpointSlice[];
  delete: EndpointSlice[];
}

/**
 * The address types the service's slices have (one set of slices each): its IP families, else the
 * family of its cluster IP, else IPv4.
 */
export function serviceAddressTypes(service: Service): AddressType[] {
  const families = service.spec?.ipFamilies ?? [];
  if (families.length) return [...new Set(families)] as AddressType[];
  const clusterIP = service.spec?.clusterIP;
  if (clusterIP && clusterIP !== 'None' && parseIPSloppy(clusterIP) === 6) return ['IPv6'];
  return ['IPv4'];
}

/** Whether the slice's controller is the service (Kubernetes' ownedBy: a v1 Service reference with its uid). */
export function ownedBy(slice: EndpointSlice, service: Service): boolean {
  return (slice.metadata?.ownerReferences ?? []).some(
    (ref) => ref.uid === service.metadata?.uid && ref.kind === 'Service' && ref.apiVersion === 'v1',
  );
}

/** The labels of the slices the controller keeps for `serviceName`. */
export function managedSliceLabels(serviceName: string): Record<string, string> {
  return { [SERVICE_NAME_LABEL]: serviceName, [MANAGED_BY_LABEL]: CONTROLLER_NAME };
}

/** A new, empty slice of the service: its labels, its controller reference, generateName `<svc>-`. */
export function newEndpointSlice(
  service: Service,
  addressType: AddressType,
  ports: EndpointSlicePort[],
): EndpointSlice {
  const name = service.metadata?.name ?? '';
  return {
    apiVersion: 'discovery.k8s.io/v1beta1',
    kind: 'EndpointSlice',
    metadata: {
      namespace: service.metadata?.namespace,
      generateName: `${name}-`,
      labels: managedSliceLabels(name),
      ownerReferences: [newControllerRef(service, { group: '', version: 'v1', kind: 'Service' })],
    },
    addressType,
    ports,
    endpoints: [],
  };
}

/**
 * The ports of the service's endpoints on a pod (Kubernetes' getEndpointPorts): each service port the
 * pod has, named as the service names it (empty when unnamed), at the container port it reaches; a
 * headless service without ports has none.
 */
export function endpointPorts(service: Service, pod: Pod): EndpointSlicePort[] {
  const ports: EndpointSlicePort[] = [];
  for (const servicePort of service.spec?.ports ?? []) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    const ep: EndpointSlicePort = {
      name: servicePort.name ?? '',
      protocol: servicePort.protocol ?? 'TCP',
      port,
    };
    if (servicePort.appProtocol) ep.appProtocol = servicePort.appProtocol;
    ports.push(ep);
  }
  return ports;
}

/** The endpoint of a pod in a slice of `addressType` (Kubernetes' podToEndpoint); no addresses when it has no IP of that type. */
export function podToEndpoint(
  service: Service,
  pod: Pod,
  node: Node | undefined,
  addressType: AddressType,
): EndpointSliceEndpoint {
  const topology: Record<string, string> = {};
  if (pod.spec?.nodeName) topology[HOSTNAME_TOPOLOGY_KEY] = pod.spec.nodeName;
  for (const label of NODE_TOPOLOGY_LABELS) {
    const value = node?.metadata?.labels?.[label];
    if (value) topology[label] = value;
  }
  const endpoint: EndpointSliceEndpoint = {
    addresses: podIPsOfFamily(pod, addressType === 'IPv6' ? 6 : 4),
    conditions: { ready: endpointReady(service, pod) },
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata?.namespace,
      name: pod.metadata?.name,
      uid: pod.metadata?.uid,
    },
    topology,
  };
  const hostname = endpointHostname(service, pod);
  if (hostname) endpoint.hostname = hostname;
  return endpoint;
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The identity of a set of ports, whatever their order (Kubernetes' PortMapKey). */
function portMapKey(ports: readonly EndpointSlicePort[] | undefined): string {
  return JSON.stringify(
    (ports ?? [])
      .map((p) => [p.name ?? '', p.protocol ?? 'TCP', p.port ?? null, p.appProtocol ?? null])
      .sort((a, b) => compareStrings(JSON.stringify(a), JSON.stringify(b))),
  );
}

/** The identity of an endpoint: its addresses and hostname (Kubernetes' endpoint hash). */
function endpointKey(endpoint: EndpointSliceEndpoint): string {
  return JSON.stringify([[...(endpoint.addresses ?? [])].sort(), endpoint.hostname ?? '']);
}

/** Desired endpoints by key, popped in key order so equal inputs give equal slices. */
class EndpointSet {
  private readonly byKey = new Map<string, EndpointSliceEndpoint>();
  get size(): number {
    return this.byKey.size;
  }
  insert(endpoint: EndpointSliceEndpoint): void {
    this.byKey.set(endpointKey(endpoint), endpoint);
  }
  get(endpoint: EndpointSliceEndpoint): EndpointSliceEndpoint | undefined {
    return this.byKey.get(endpointKey(endpoint));
  }
  delete(endpoint: EndpointSliceEndpoint): void {
    this.byKey.delete(endpointKey(endpoint));
  }
  pop(): EndpointSliceEndpoint {
    const key = [...this.byKey.keys()].sort(compareStrings)[0]!;
    const endpoint = this.byKey.get(key)!;
    this.byKey.delete(key);
    return endpoint;
  }
}

/**
 * The slice closest to full once `count` endpoints join it, without going over `max`
 * (Kubernetes' getSliceToFill); undefined when none has the room.
 */
function sliceToFill(slices: EndpointSlice[], count: number, max: number): EndpointSlice | undefined {
  let closest: EndpointSlice | undefined;
  let closestDiff = max;
  for (const slice of slices) {
    const diff = max - (count + (slice.endpoints ?? []).length);
    if (diff >= 0 && diff < closestDiff) {
      closest = slice;
      closestDiff = diff;
      if (diff === 0) break;
    }
  }
  return closest;
}

/**
 * The slices of one set of ports (Kubernetes' reconcileByPortMapping): existing slices drop the
 * endpoints no longer desired and take the changes of those that stay; slices left empty go; the
 * slices being updated are filled up with new endpoints (the fullest first); what remains goes into
 * the unchanged slice it fills best or, failing that, into new slices.
 */
function reconcilePortMapping(
  service: Service,
  existing: EndpointSlice[],
  desired: EndpointSet,
  addressType: AddressType,
  ports: EndpointSlicePort[],
  max: number,
): SlicePlan {
  const byName = new Map<string, EndpointSlice>();
  const unchanged: string[] = [];
  const toUpdate: string[] = [];
  const toDelete: string[] = [];

  for (const slice of existing) {
    const name = slice.metadata?.name ?? '';
    byName.set(name, slice);
    const kept: EndpointSliceEndpoint[] = [];
    let changed = false;
    for (const endpoint of slice.endpoints ?? []) {
      const want = desired.get(endpoint);
      if (!want) continue;
      kept.push(want);
      if (!isDeepStrictEqual(want, endpoint)) changed = true;
      desired.delete(endpoint);
    }
    if (changed || kept.length !== (slice.endpoints ?? []).length) {
      if (kept.length === 0) toDelete.push(name);
      else {
        byName.set(name, { ...cloneJson(slice), endpoints: kept });
        toUpdate.push(name);
      }
    } else unchanged.push(name);
  }

  if (desired.size > 0 && toUpdate.length > 0) {
    const fullestFirst = toUpdate
      .map((name) => byName.get(name)!)
      .sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length);
    for (const slice of fullestFirst) {
      const endpoints = (slice.endpoints ??= []);
      while (desired.size > 0 && endpoints.length < max) endpoints.push(desired.pop());
    }
  }

  const create: EndpointSlice[] = [];
  while (desired.size > 0) {
    let slice: EndpointSlice | undefined;
    if (desired.size < max && unchanged.length > 0) {
      const found = sliceToFill(
        unchanged.map((name) => byName.get(name)!),
        desired.size,
        max,
      );
      if (found) {
        slice = cloneJson(found);
        byName.set(found.metadata?.name ?? '', slice);
      }
    }
    slice ??= newEndpointSlice(service, addressType, ports);
    const endpoints = (slice.endpoints ??= []);
    while (desired.size > 0 && endpoints.length < max) endpoints.push(desired.pop());
    const name = slice.metadata?.name;
    if (name) {
      toUpdate.push(name);
      unchanged.splice(unchanged.indexOf(name), 1);
    } else create.push(slice);
  }

  return {
    create,
    update: toUpdate.map((name) => byName.get(name)!),
    delete: toDelete.map((name) => byName.get(name)!),
  };
}

/** The empty slice a service whose pods give no endpoints keeps (Kubernetes' placeholder slice). */
function isPlaceholder(slice: EndpointSlice, service: Service, addressType: AddressType): boolean {
  return (
    slice.addressType === addressType &&
    ownedBy(slice, service) &&
    (slice.ports ?? []).length === 0 &&
    (slice.endpoints ?? []).length === 0 &&
    isDeepStrictEqual(slice.metadata?.labels ?? {}, managedSliceLabels(service.metadata?.name ?? ''))
  );
}

/** The slices of one address type (Kubernetes' reconcileByAddressType). */
function reconcileAddressType(
  service: Service,
  pods: readonly Pod[],
  existing: EndpointSlice[],
  addressType: AddressType,
  options: SliceReconcileOptions,
): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const existingByPorts = new Map<string, EndpointSlice[]>();
  for (const slice of existing) {
    if (!ownedBy(slice, service)) {
      plan.delete.push(slice);
      continue;
    }
    const key = portMapKey(slice.ports);
    existingByPorts.set(key, [...(existingByPorts.get(key) ?? []), slice]);
  }

  const desired = new Map<string, { ports: EndpointSlicePort[]; endpoints: EndpointSet }>();
  const includeNotReady = service.spec?.publishNotReadyAddresses === true;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, includeNotReady)) continue;
    const ports = endpointPorts(service, pod);
    const key = portMapKey(ports);
    let entry = desired.get(key);
    if (!entry) desired.set(key, (entry = { ports, endpoints: new EndpointSet() }));
    const nodeName = pod.spec?.nodeName;
    const endpoint = podToEndpoint(service, pod, nodeName ? options.node(nodeName) : undefined, addressType);
    if (endpoint.addresses.length > 0) entry.endpoints.insert(endpoint);
  }

  for (const [key, { ports, endpoints }] of desired) {
    const part = reconcilePortMapping(
      service,
      existingByPorts.get(key) ?? [],
      endpoints,
      addressType,
      ports,
      options.maxEndpointsPerSlice,
    );
    plan.create.push(...part.create);
    plan.update.push(...part.update);
    plan.delete.push(...part.delete);
  }
  // slices of ports no pod offers any more go
  for (const [key, slices] of existingByPorts) if (!desired.has(key)) plan.delete.push(...slices);

  // a service without endpoints keeps one empty slice
  if (existing.length === plan.delete.length && plan.create.length === 0) {
    const onlyPlaceholder = plan.delete.length === 1 && isPlaceholder(plan.delete[0]!, service, addressType);
    if (onlyPlaceholder) plan.delete = [];
    else plan.create.push(newEndpointSlice(service, addressType, []));
  }
  return plan;
}

/**
 * The writes that make `existing` (the slices labelled as the service's and managed by this
 * controller) the service's slices over its pods (Kubernetes' EndpointSlice reconciler): one set of
 * slices per address type of the service, the endpoints of pods offering the same ports together,
 * at most `maxEndpointsPerSlice` to a slice; slices of other address types, or of another service of
 * the same name, go. A slice that would be created while another goes is written over that one.
 */
export function reconcileSlices(
  service: Service,
  pods: readonly Pod[],
  existing: readonly EndpointSlice[],
  options: SliceReconcileOptions,
): SlicePlan {
  const types = serviceAddressTypes(service);
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const byType = new Map<string, EndpointSlice[]>();
  for (const slice of existing) {
    if (!(types as string[]).includes(slice.addressType)) plan.delete.push(slice);
    else byType.set(slice.addressType, [...(byType.get(slice.addressType) ?? []), slice]);
  }
  for (const type of types) {
    const part = reconcileAddressType(service, pods, byType.get(type) ?? [], type, options);
    const merged = reuseDeletedSlices(service, part);
    plan.create.push(...merged.create);
    plan.update.push(...merged.update);
    plan.delete.push(...merged.delete);
  }
  return plan;
}

/**
 * Turns creates into updates of slices about to be deleted (Kubernetes' finalize), when the slice
 * to delete is the service's and of the same address type.
 */
function reuseDeletedSlices(service: Service, plan: SlicePlan): SlicePlan {
  const create = [...plan.create];
  const update = [...plan.update];
  const remaining: EndpointSlice[] = [];
  for (const old of plan.delete) {
    const fresh = create[create.length - 1];
    if (fresh && old.addressType === fresh.addressType && ownedBy(old, service)) {
      create.pop();
      const metadata = { ...fresh.metadata, name: old.metadata?.name };
      if (old.metadata?.resourceVersion) metadata.resourceVersion = old.metadata.resourceVersion;
      update.push({ ...fresh, metadata });
    } else remaining.push(old);
  }
  return { create, update, delete: remaining };
}
