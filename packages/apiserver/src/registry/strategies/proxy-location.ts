import { statusErrors } from '../../errors/status-error';
import { objectKey } from '../keys';
import { nodeAgentByName, type KubeletClientConfig } from './pod-log';
import { isProxyableIP, locationOf, type ProxyLocator } from './proxy';

interface ProxiedPod {
  spec?: { containers?: { ports?: { containerPort?: number }[] }[] };
  status?: { podIP?: string; podIPs?: { ip: string }[] };
}

interface ProxiedService {
  spec?: { ports?: { name?: string; port: number }[] };
}

interface EndpointAddress {
  ip: string;
  targetRef?: { kind?: string; namespace?: string; name?: string };
}

interface ProxiedEndpoints {
  subsets?: {
    addresses?: EndpointAddress[];
    ports?: { name?: string; port: number }[];
  }[];
}

/**
 * pods/proxy: the pod's IP and the port asked for, else its first container port, else none (the
 * scheme's); 400 "address not allowed" for a pod without a usable IP.
 */
export const podLocation: ProxyLocator = async (store, request, id) => {
  const pod = (await store.get(request.scope, id.name)) as ProxiedPod;
  let port = id.port;
  if (!port) {
    const first = (pod.spec?.containers ?? []).find((c) => (c.ports ?? []).length > 0);
    if (first?.ports?.[0]?.containerPort) port = String(first.ports[0].containerPort);
  }
  const ip = pod.status?.podIPs?.[0]?.ip || pod.status?.podIP;
  if (!isProxyableIP(ip)) throw statusErrors.badRequest('address not allowed');
  return locationOf(id.scheme, ip, port);
};

/**
 * services/proxy, as Kubernetes' service ResourceLocation: a port number names the service port
 * with that port (503 when there is none); then a ready address of a random subset of the Endpoints
 * with a port of that name (an unnamed service port: the one without a name), whose target pod of
 * the service's namespace has that IP. 503 "no endpoints available" when there is none.
 */
export const serviceLocation: ProxyLocator = async (store, request, id) => {
  const namespace = request.scope.namespace;
  let portName = id.port;
  if (/^[+-]?\d+$/.test(portName)) {
    const n = Number(portName);
    const service = (await store.get(request.scope, id.name)) as ProxiedService;
    const port = (service.spec?.ports ?? []).find((p) => p.port === n);
    if (!port) throw statusErrors.serviceUnavailable(`no service port ${n} found for service "${id.name}"`);
    portName = port.name ?? '';
  }
  const kv = await store.storage.get(objectKey('', 'endpoints', namespace, id.name));
  if (!kv) throw statusErrors.notFound({ group: '', resource: 'endpoints' }, id.name);
  const subsets = (JSON.parse(kv.value.toString('utf8')) as ProxiedEndpoints).subsets ?? [];
  if (subsets.length === 0)
    throw statusErrors.serviceUnavailable(`no endpoints available for service "${id.name}"`);
  const podIPs = async (address: EndpointAddress): Promise<string[]> => {
    const ref = address.targetRef;
    if (!ref?.name || ref.namespace !== namespace) return [];
    const pod = await store.storage.get(objectKey('', 'pods', namespace, ref.name));
    if (!pod) return [];
    const status = (JSON.parse(pod.value.toString('utf8')) as ProxiedPod).status;
    return [...(status?.podIPs ?? []).map((p) => p.ip), ...(status?.podIP ? [status.podIP] : [])];
  };
  const subsetSeed = Math.floor(Math.random() * subsets.length);
  for (let s = 0; s < subsets.length; s++) {
    const subset = subsets[(subsetSeed + s) % subsets.length]!;
    const addresses = subset.addresses ?? [];
    if (addresses.length === 0) continue;
    for (const port of subset.ports ?? []) {
      if ((port.name ?? '') !== portName) continue;
      const addressSeed = Math.floor(Math.random() * addresses.length);
      for (let a = 0; a < addresses.length; a++) {
        const address = addresses[(addressSeed + a) % addresses.length]!;
        if (!(await podIPs(address)).includes(address.ip)) continue;
        return locationOf(id.scheme, address.ip, String(port.port));
      }
    }
  }
  throw statusErrors.serviceUnavailable(`no endpoints available for service "${request.name}"`);
};

/**
 * nodes/proxy: the node agent's HTTPS server (the address and port pods/log uses, with the kubelet
 * client certificate) when no port or the agent's port is asked for; another port of the node's
 * address otherwise, over the scheme asked for (http when none).
 */
export function nodeLocation(kubelet: () => KubeletClientConfig | undefined): ProxyLocator {
  return async (store, request, id) => {
    const agent = await nodeAgentByName(store, id.name, kubelet, request.query);
    const address = String(agent.options.host);
    if (!id.port || id.port === String(agent.options.port))
      return { scheme: 'https', host: agent.host, options: agent.options, hostHeader: agent.host };
    return locationOf(id.scheme, address, id.port);
  };
}
