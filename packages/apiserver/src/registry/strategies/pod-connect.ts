import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { upgradeOf } from '@orch/component-base';
import { statusErrors } from '../../errors/status-error';
import type { SubresourceHandler } from '../custom-handlers';
import { containerOf, nodeAgentOf, readAll, type KubeletClientConfig, type PodLike } from './pod-log';
import { relayUpgrade } from './proxy';

/** The connect subresources of pods and the node agent path each is served at. */
export type PodConnect = 'exec' | 'attach' | 'portforward';

/** Request headers not passed to the node agent: the caller's credentials and hop-by-hop ones. */
const DROPPED_HEADERS = new Set(['authorization', 'host', 'content-length', 'transfer-encoding']);

function parseBool(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null || v === '') return false;
  if (/^(1|t|true)$/i.test(v)) return true;
  if (/^(0|f|false)$/i.test(v)) return false;
  throw statusErrors.badRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
}

/**
 * The node agent's query for exec and attach (PodExecOptions, PodAttachOptions): the kubelet's
 * `input`, `output`, `error`, `tty` and each `command`; Kubernetes' 400s for a missing command or
 * no stream at all.
 */
function remoteCommandQuery(kind: 'exec' | 'attach', q: URLSearchParams): URLSearchParams {
  const stdin = parseBool(q, 'stdin');
  const stdout = parseBool(q, 'stdout');
  const stderr = parseBool(q, 'stderr');
  const tty = parseBool(q, 'tty');
  const command = q.getAll('command');
  if (kind === 'exec' && command.length === 0)
    throw statusErrors.badRequest('you must specify at least one command for the container');
  if (!stdin && !stdout && !stderr)
    throw statusErrors.badRequest('you must specify at least 1 of stdin, stdout, stderr');
  const out = new URLSearchParams();
  if (stdin) out.append('input', '1');
  if (stdout) out.append('output', '1');
  if (stderr) out.append('error', '1');
  if (tty) out.append('tty', '1');
  for (const c of command) out.append('command', c);
  return out;
}

/** PodPortForwardOptions: the `ports`, each a port number, passed on as the kubelet's `port`. */
function portForwardQuery(q: URLSearchParams): URLSearchParams {
  const ports = q.getAll('ports').flatMap((p) => p.split(','));
  for (const p of ports) {
    const n = Number(p);
    if (!/^\d+$/.test(p) || n < 1 || n > 65535)
      throw statusErrors.badRequest(`invalid port "${p}": must be between 1 and 65535, inclusive`);
  }
  const out = new URLSearchParams();
  if (ports.length) out.append('port', ports.join(','));
  return out;
}

/** The raw request headers to pass on, with the node agent's host. */
function forwardedHeaders(req: IncomingMessage, host: string): [string, string][] {
  // no body goes on: the bytes after the headers belong to the streaming protocol
  const out: [string, string][] = [
    ['Host', host],
    ['Content-Length', '0'],
  ];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower) || lower.startsWith('impersonate-')) continue;
    out.push([name, req.rawHeaders[i + 1]!]);
  }
  return out;
}

/**
 * pods/exec, pods/attach and pods/portforward (GET and POST, authorized as get and create), as
 * Kubernetes' UpgradeAwareHandler serves them: the options and the container are checked here, the
 * request goes on to the node agent of the pod's node (`/exec/<ns>/<pod>/<container>?...`,
 * `/attach/...`, `/portforward/<ns>/<pod>`) with the apiserver's kubelet client certificate; its
 * 101 answer is relayed and the bytes are piped both ways, the apiserver not reading the streaming
 * protocol itself. An answer other than 101 is the client's error, as a Status.
 */
export function podConnectHandler(
  kind: PodConnect,
  kubelet: () => KubeletClientConfig | undefined,
): SubresourceHandler {
  return async (store, request) => {
    if (request.verb !== 'get' && request.verb !== 'create')
      throw statusErrors.methodNotAllowed('the server does not allow this method on the requested resource');
    const query =
      kind === 'portforward' ? portForwardQuery(request.query) : remoteCommandQuery(kind, request.query);
    const pod = (await store.get(request.scope, request.name)) as PodLike;
    const ns = encodeURIComponent(pod.metadata.namespace ?? '');
    const name = encodeURIComponent(pod.metadata.name ?? '');
    const path =
      kind === 'portforward'
        ? `/portforward/${ns}/${name}`
        : `/${kind}/${ns}/${name}/${encodeURIComponent(containerOf(pod, request.query.get('container')))}`;
    const agent = await nodeAgentOf(store, pod, kubelet, request.query);
    const http = request.http;
    const upgrade = http ? upgradeOf(http) : undefined;
    const fullPath = `${path}${query.size ? `?${query}` : ''}`;
    const method = http?.method ?? 'POST';
    return new Promise((resolve, reject) => {
      const req = https.request({
        ...agent.options,
        method,
        path: fullPath,
        headers: http ? forwardedHeaders(http, agent.host).flat() : {},
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) =>
        reject(
          statusErrors.fromServer(
            500,
            `error dialing backend: ${method} "https://${agent.host}${fullPath}": ${err.message}`,
          ),
        ),
      );
      req.on('upgrade', (res, backend, head) => {
        req.setTimeout(0);
        if (relayUpgrade(upgrade, res, backend, head))
          resolve({ code: 101, object: undefined, upgraded: true });
        else
          reject(statusErrors.internal('the node agent switched protocols on a request that did not ask to'));
      });
      req.on('response', (res) => {
        req.setTimeout(0);
        const code = res.statusCode ?? 500;
        if (code >= 200 && code < 300) {
          resolve({
            code,
            object: undefined,
            stream: { contentType: res.headers['content-type'] ?? 'text/plain', body: res },
          });
          return;
        }
        void readAll(res).then((body) =>
          reject(statusErrors.fromServer(code, body.trim() || `the node agent answered ${code}`)),
        );
      });
      req.end();
    });
  };
}
