import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { statusErrors } from '../../errors/status-error';
import type { SubresourceHandler } from '../custom-handlers';
import { objectKey } from '../keys';

/** How the apiserver reaches node agents (the `--kubelet-*` flags). */
export interface KubeletClientConfig {
  /** Client certificate and key presented to the node agent. */
  cert?: string;
  key?: string;
  /** Verifies the node agent's serving certificate when set; without it the certificate is not checked. */
  ca?: string;
  /** The node address types tried, in order (Kubernetes' default: Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP). */
  preferredAddressTypes: readonly string[];
  /** Connection timeout. */
  timeoutMs?: number;
}

export interface PodLike {
  metadata: { name?: string; namespace?: string };
  spec?: {
    nodeName?: string;
    containers?: { name: string }[];
    initContainers?: { name: string }[];
    ephemeralContainers?: { name: string }[];
  };
}

export interface NodeLike {
  status?: {
    addresses?: { type: string; address: string }[];
    daemonEndpoints?: { kubeletEndpoint?: { Port?: number } };
  };
}

const PASSED_OPTIONS = [
  'follow',
  'previous',
  'sinceSeconds',
  'sinceTime',
  'timestamps',
  'tailLines',
  'limitBytes',
];

/** Validates PodLogOptions as Kubernetes does; throws a 400 naming the bad option. */
function validateLogOptions(q: URLSearchParams): void {
  const bool = (name: string) => {
    const v = q.get(name);
    if (v !== null && v !== '' && !/^(1|t|true|0|f|false)$/i.test(v))
      throw statusErrors.badRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
  };
  ['follow', 'previous', 'timestamps', 'insecureSkipTLSVerifyBackend'].forEach(bool);
  for (const name of ['sinceSeconds', 'tailLines', 'limitBytes']) {
    const v = q.get(name);
    if (v === null || v === '') continue;
    if (!/^-?\d+$/.test(v)) throw statusErrors.badRequest(`strconv.ParseInt: parsing "${v}": invalid syntax`);
    const n = Number(v);
    if (name === 'tailLines' ? n < 0 : n < 1) {
      const what = name === 'tailLines' ? 'must be greater than or equal to 0' : 'must be greater than 0';
      throw statusErrors.invalid(
        'PodLogOptions',
        '',
        '',
        `PodLogOptions "" is invalid: ${name}: Invalid value: ${n}: ${what}`,
        [{ reason: 'FieldValueInvalid', message: `Invalid value: ${n}: ${what}`, field: name }],
      );
    }
  }
  const sinceTime = q.get('sinceTime');
  if (sinceTime && Number.isNaN(Date.parse(sinceTime)))
    throw statusErrors.badRequest(`parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  if (sinceTime && q.get('sinceSeconds'))
    throw statusErrors.invalid(
      'PodLogOptions',
      '',
      '',
      'PodLogOptions "" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
      [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
          field: '',
        },
      ],
    );
}

/** The container asked for: the named one, else the pod's only one (Kubernetes' errors otherwise). */
export function containerOf(pod: PodLike, name: string | null): string {
  const podName = pod.metadata.name ?? '';
  const app = (pod.spec?.containers ?? []).map((c) => c.name);
  const all = [
    ...app,
    ...(pod.spec?.initContainers ?? []).map((c) => c.name),
    ...(pod.spec?.ephemeralContainers ?? []).map((c) => c.name),
  ];
  if (!name) {
    if (app.length === 1) return app[0]!;
    const init = (pod.spec?.initContainers ?? []).map((c) => c.name);
    const choices = `[${app.join(' ')}]${init.length ? ` or one of the init containers: [${init.join(' ')}]` : ''}`;
    throw statusErrors.badRequest(
      `a container name must be specified for pod ${podName}, choose one of: ${choices}`,
    );
  }
  if (!all.includes(name)) throw statusErrors.badRequest(`container ${name} is not valid for pod ${podName}`);
  return name;
}

export function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * pods/log: validates the options and the container as Kubernetes does, then streams
 * `/containerLogs/<ns>/<pod>/<container>` from the node agent of the pod's node (its address by
 * the preferred address types, its port from the Node's kubelet endpoint), keeping the agent's
 * status code when it fails.
 */
export function podLogHandler(kubelet: () => KubeletClientConfig | undefined): SubresourceHandler {
  return async (store, request) => {
    if (request.verb !== 'get')
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    validateLogOptions(request.query);
    const pod = (await store.get(request.scope, request.name)) as PodLike;
    const container = containerOf(pod, request.query.get('container'));
    const query = new URLSearchParams();
    for (const name of PASSED_OPTIONS) {
      const v = request.query.get(name);
      if (v !== null && v !== '') query.set(name, v);
    }
    const agent = await nodeAgentOf(store, pod, kubelet, request.query);
    const path = `/containerLogs/${encodeURIComponent(pod.metadata.namespace ?? '')}/${encodeURIComponent(
      pod.metadata.name ?? '',
    )}/${encodeURIComponent(container)}${query.size ? `?${query}` : ''}`;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = https.get({ ...agent.options, path }, (r) => {
        req.setTimeout(0);
        resolve(r);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) =>
        reject(statusErrors.fromServer(500, `Get "https://${agent.host}${path}": ${err.message}`)),
      );
    });
    const code = res.statusCode ?? 500;
    if (code < 200 || code >= 300) {
      const body = (await readAll(res)).trim();
      throw statusErrors.fromServer(code, body || `the node agent answered ${code}`);
    }
    return { code: 200, object: undefined, stream: { contentType: 'text/plain', body: res } };
  };
}

/** How to reach the node agent of a pod's node: its `host:port` and the TLS options of a request to it. */
export interface NodeAgentTarget {
  host: string;
  options: https.RequestOptions;
}

/**
 * The node agent of the pod's node: its address by the preferred address types, its port from the
 * Node's kubelet endpoint, the kubelet client certificate, and the CA that verifies it (none, or
 * `insecureSkipTLSVerifyBackend`: not verified). 400 for a pod without a node.
 */
export async function nodeAgentOf(
  store: Parameters<SubresourceHandler>[0],
  pod: PodLike,
  kubelet: () => KubeletClientConfig | undefined,
  q: URLSearchParams,
): Promise<NodeAgentTarget> {
  const nodeName = pod.spec?.nodeName;
  if (!nodeName)
    throw statusErrors.badRequest(`pod ${pod.metadata.name ?? ''} does not have a host assigned`);
  return nodeAgentByName(store, nodeName, kubelet, q);
}

/** The node agent of the named node (see {@link nodeAgentOf}); 404 for a missing node. */
export async function nodeAgentByName(
  store: Parameters<SubresourceHandler>[0],
  nodeName: string,
  kubelet: () => KubeletClientConfig | undefined,
  q: URLSearchParams,
): Promise<NodeAgentTarget> {
  const kv = await store.storage.get(objectKey('', 'nodes', '', nodeName));
  if (!kv) throw statusErrors.notFound({ group: '', resource: 'nodes' }, nodeName);
  return nodeAgentAt(JSON.parse(kv.value.toString('utf8')) as NodeLike, nodeName, kubelet, q);
}

/** The node agent of a Node (see {@link nodeAgentOf}). */
export function nodeAgentAt(
  node: NodeLike,
  nodeName: string,
  kubelet: () => KubeletClientConfig | undefined,
  q: URLSearchParams,
): NodeAgentTarget {
  const config = kubelet() ?? {
    preferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'],
  };
  const addresses = node.status?.addresses ?? [];
  const address = config.preferredAddressTypes
    .map((type) => addresses.find((a) => a.type === type && a.address)?.address)
    .find((a) => a !== undefined);
  if (!address)
    throw statusErrors.badRequest(
      `no preferred addresses found; known addresses: ${JSON.stringify(addresses)}`,
    );
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!port) throw statusErrors.badRequest(`node ${nodeName} does not report a kubelet port`);
  const host = address.includes(':') ? `[${address}]` : address;
  const skipVerify = !config.ca || /^(1|t|true)$/i.test(q.get('insecureSkipTLSVerifyBackend') ?? '');
  return {
    host: `${host}:${port}`,
    options: {
      host: address,
      port,
      ...(config.cert ? { cert: config.cert } : {}),
      ...(config.key ? { key: config.key } : {}),
      ...(config.ca ? { ca: config.ca } : {}),
      rejectUnauthorized: !skipVerify,
      ...(skipVerify ? { checkServerIdentity: () => undefined } : {}),
      timeout: config.timeoutMs ?? 5000,
    },
  };
}
