import {
  isPodTerminal,
  parseIPSloppy,
  type EndpointAddress,
  type EndpointPort,
  type EndpointSubset,
  type Pod,
  type Service,
  type ServicePort,
} from '@orch/api';
import { isPodReady } from '../controller/podUtil';

/** Addresses an Endpoints object holds at most; the rest are left out (Kubernetes' maxCapacity). */
export const MAX_ENDPOINT_ADDRESSES = 1000;
/** Set on an Endpoints object whose addresses were cut to {@link MAX_ENDPOINT_ADDRESSES}. */
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
/** The label the Endpoints of a headless service (clusterIP None) carry. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

/** Whether a pod is an endpoint at all: not finished, with an IP, not being deleted unless tolerated. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false;
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

/** The pod's IP of the service's first IP family (IPv4 unless the service says otherwise). */
function podIPFor(service: Service, pod: Pod): string | undefined {
  return podIPsOfFamily(pod, service.spec?.ipFamilies?.[0] === 'IPv6' ? 6 : 4)[0];
}

/** The pod's IPs (podIPs, else podIP) of one IP family, in the pod's order. */
export function podIPsOfFamily(pod: Pod, family: 4 | 6): string[] {
  const ips = pod.status?.podIPs?.length
    ? pod.status.podIPs.map((p) => p.ip ?? '')
    : [pod.status?.podIP ?? ''];
  return ips.filter((ip) => ip && parseIPSloppy(ip) === family);
}

/**
 * The container port a service port reaches on a pod (Kubernetes' FindPort): a number as it is, a
 * name looked up among the containers' ports of the same protocol; undefined when none has it.
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  const protocol = servicePort.protocol ?? 'TCP';
  for (const container of pod.spec?.containers ?? []) {
    for (const port of container.ports ?? []) {
      if (port.name === target && (port.protocol ?? 'TCP') === protocol) return port.containerPort;
    }
  }
  return undefined;
}

function endpointAddress(service: Service, pod: Pod, ip: string): EndpointAddress {
  const address: EndpointAddress = {
    ip,
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata?.namespace,
      name: pod.metadata?.name,
      uid: pod.metadata?.uid,
    },
  };
  if (pod.spec?.nodeName) address.nodeName = pod.spec.nodeName;
  const hostname = endpointHostname(service, pod);
  if (hostname) address.hostname = hostname;
  return address;
}

/**
 * The hostname the pod's endpoints carry for the service (Kubernetes' ShouldSetHostname): the pod's,
 * when the pod names the service as its subdomain; undefined otherwise.
 */
export function endpointHostname(service: Service, pod: Pod): string | undefined {
  return pod.spec?.hostname && pod.spec.subdomain === service.metadata?.name ? pod.spec.hostname : undefined;
}

/** Whether the pod's endpoints are ready for the service: the pod is, or the service publishes it anyway. */
export function endpointReady(service: Service, pod: Pod): boolean {
  return service.spec?.publishNotReadyAddresses === true || isPodReady(pod);
}

function endpointPort(servicePort: ServicePort, port: number): EndpointPort {
  const ep: EndpointPort = { port, protocol: servicePort.protocol ?? 'TCP' };
  if (servicePort.name) ep.name = servicePort.name;
  if (servicePort.appProtocol) ep.appProtocol = servicePort.appProtocol;
  return ep;
}

const portKey = (p: EndpointPort): string =>
  `${p.name ?? ''}/${p.port}/${p.protocol ?? 'TCP'}/${p.appProtocol ?? ''}`;
const addressKey = (a: EndpointAddress): string => `${a.ip}/${a.targetRef?.uid ?? ''}`;

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const ka = addressKey(a);
  const kb = addressKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The subsets of the Endpoints of `service` over the pods its selector picked (Kubernetes' endpoints
 * controller): one address per pod with an IP of the service's family, ready (or published while not
 * ready) in `addresses`, else in `notReadyAddresses`, for every service port the pod has; a headless
 * service without ports gets the addresses alone. Addresses offering the same ports share a subset
 * (RepackSubsets), addresses and ports sorted, so equal inputs give equal objects.
 */
export function endpointSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const tolerateUnready = service.spec?.publishNotReadyAddresses === true;
  const headless = service.spec?.clusterIP === 'None';
  const servicePorts = service.spec?.ports ?? [];
  /** address key → the address and whether it is ready, per port key ('' for no port). */
  const byPort = new Map<
    string,
    { port: EndpointPort | undefined; addresses: Map<string, [EndpointAddress, boolean]> }
  >();
  const add = (port: EndpointPort | undefined, address: EndpointAddress, ready: boolean) => {
    const key = port ? portKey(port) : '';
    let entry = byPort.get(key);
    if (!entry) byPort.set(key, (entry = { port, addresses: new Map() }));
    entry.addresses.set(addressKey(address), [address, ready]);
  };
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const ip = podIPFor(service, pod);
    if (!ip) continue;
    const address = endpointAddress(service, pod, ip);
    const ready = endpointReady(service, pod);
    if (servicePorts.length === 0) {
      if (headless) add(undefined, address, ready);
      continue;
    }
    for (const servicePort of servicePorts) {
      const port = findPort(pod, servicePort);
      if (port !== undefined) add(endpointPort(servicePort, port), address, ready);
    }
  }
  // ports offered by the same set of addresses go together
  const groups = new Map<string, { addresses: [EndpointAddress, boolean][]; ports: EndpointPort[] }>();
  for (const { port, addresses } of byPort.values()) {
    const members = [...addresses.values()].sort((a, b) => compareAddresses(a[0], b[0]));
    const key = members.map(([a, ready]) => `${addressKey(a)}:${ready}`).join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { addresses: members, ports: [] }));
    if (port) group.ports.push(port);
  }
  const subsets = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { addresses, ports }]) => {
      const subset: EndpointSubset = {};
      const ready = addresses.filter(([, r]) => r).map(([a]) => a);
      const notReady = addresses.filter(([, r]) => !r).map(([a]) => a);
      if (ready.length) subset.addresses = ready;
      if (notReady.length) subset.notReadyAddresses = notReady;
      if (ports.length) subset.ports = ports.sort((a, b) => (portKey(a) < portKey(b) ? -1 : 1));
      return subset;
    });
  return subsets;
}

/**
 * The subsets cut to {@link MAX_ENDPOINT_ADDRESSES} addresses (Kubernetes' truncateEndpoints): not
 * ready addresses go first; when the ready ones alone are too many, only ready ones stay. Each subset
 * keeps its share of what is kept, rounded up; subsets left without addresses are dropped.
 * `truncated` tells whether anything was cut.
 */
export function truncateSubsets(subsets: EndpointSubset[]): {
  subsets: EndpointSubset[];
  truncated: boolean;
} {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += s.addresses?.length ?? 0;
    notReady += s.notReadyAddresses?.length ?? 0;
  }
  if (ready + notReady <= MAX_ENDPOINT_ADDRESSES) return { subsets, truncated: false };
  const cutReady = ready > MAX_ENDPOINT_ADDRESSES;
  const keep = cutReady ? MAX_ENDPOINT_ADDRESSES : MAX_ENDPOINT_ADDRESSES - ready;
  const total = cutReady ? ready : notReady;
  let room = keep;
  const cut = subsets.map((s) => {
    const list = (cutReady ? s.addresses : s.notReadyAddresses) ?? [];
    const kept = list.slice(0, Math.min(Math.ceil((list.length / total) * keep), room));
    room -= kept.length;
    const subset: EndpointSubset = {};
    const readyAddresses = cutReady ? kept : s.addresses;
    const notReadyAddresses = cutReady ? [] : kept;
    if (readyAddresses?.length) subset.addresses = readyAddresses;
    if (notReadyAddresses.length) subset.notReadyAddresses = notReadyAddresses;
    if (s.ports) subset.ports = s.ports;
    return subset;
  });
  return { subsets: cut.filter((s) => s.addresses || s.notReadyAddresses), truncated: true };
}
