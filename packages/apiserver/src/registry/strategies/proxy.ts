import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { Readable, type Duplex } from 'node:stream';
import { upgradeOf, type UpgradeConnection } from '@orch/component-base';
import { statusErrors } from '../../errors/status-error';
import type { CustomRequest, SubresourceHandler } from '../custom-handlers';
import type { GenericStore } from '../generic-store';

/** The `[scheme:]name[:port]` of a proxy request, as Kubernetes' SplitSchemeNamePort reads it. */
export interface SchemeNamePort {
  scheme: '' | 'http' | 'https';
  name: string;
  port: string;
}

/** Splits `name`, `name:port` or `scheme:name:port`; undefined when it is none of them. */
export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (!name || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme: scheme as SchemeNamePort['scheme'], name, port };
}

/** Where a proxied request goes. */
export interface ProxyLocation {
  scheme: 'http' | 'https';
  /** `host[:port]` as in a URL (an IPv6 address in brackets). */
  host: string;
  /** The connection's options: host, port and TLS. */
  options: https.RequestOptions;
  /** The Host header sent (the node agent's address, its TLS name); else the caller's is passed on. */
  hostHeader?: string;
}

/** Resolves the backend of a proxy request (Kubernetes' ResourceLocation of the kind). */
export type ProxyLocator = (
  store: GenericStore,
  request: CustomRequest,
  id: SchemeNamePort,
) => Promise<ProxyLocation>;

/** How long connecting to a pod or service backend may take (Kubernetes' proxy dialer: 30 s). */
const DIAL_TIMEOUT_MS = 30_000;

/**
 * The location of `ip[:port]` reached over `scheme` (http when empty), as the apiserver's proxy
 * transport reaches pods and services: an https backend's certificate is not verified.
 */
export function locationOf(scheme: SchemeNamePort['scheme'], ip: string, port: string): ProxyLocation {
  const s = scheme || 'http';
  const bracketed = ip.includes(':') ? `[${ip}]` : ip;
  const host = port ? `${bracketed}:${port}` : bracketed;
  const n = port ? Number(port) : s === 'https' ? 443 : 80;
  if (!/^\d*$/.test(port) || n < 1 || n > 65535)
    throw statusErrors.serviceUnavailable(
      `error trying to reach service: dial tcp: address ${host}: ${/^\d+$/.test(port) ? 'invalid port' : 'unknown port'}`,
    );
  return {
    scheme: s,
    host,
    options: {
      host: ip,
      port: n,
      timeout: DIAL_TIMEOUT_MS,
      ...(s === 'https' ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {}),
    },
  };
}

/**
 * Whether the apiserver proxies to this address: an IP that is neither unspecified, multicast nor
 * link-local (Kubernetes also refuses loopback; here nodes, and so host-network pods, may live on it).
 */
export function isProxyableIP(ip: string | undefined): ip is string {
  if (!ip) return false;
  const family = isIP(ip);
  if (family === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return !(a === 0 || (a >= 224 && a <= 239) || a === 255 || (a === 169 && b === 254));
  }
  if (family === 6) {
    const lower = ip.toLowerCase();
    return !(/^::?$/.test(lower) || lower === '::0' || /^ff/.test(lower) || /^fe[89ab]/.test(lower));
  }
  return false;
}

/** Headers of one hop only, never passed on (Go's reverse proxy list). */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The hop-by-hop headers of a message: the fixed ones and those its Connection header names. */
function hopByHop(headers: IncomingMessage['headers']): Set<string> {
  const out = new Set(HOP_BY_HOP);
  const connection = headers.connection;
  for (const v of Array.isArray(connection) ? connection : connection ? [connection] : [])
    for (const name of v.split(',')) if (name.trim()) out.add(name.trim().toLowerCase());
  return out;
}

/**
 * The request headers passed to the backend: all but the hop-by-hop ones (an upgrade keeps its
 * Connection and Upgrade), the caller's credentials and impersonation; the client's address is
 * added to X-Forwarded-For.
 */
function requestHeaders(req: IncomingMessage, upgrade: boolean, location: ProxyLocation): [string, string][] {
  const dropped = hopByHop(req.headers);
  if (upgrade) {
    dropped.delete('connection');
    dropped.delete('upgrade');
  }
  dropped.add('authorization');
  const host = location.hostHeader ?? (req.headers.host ? undefined : location.host);
  if (host) dropped.add('host');
  const out: [string, string][] = host ? [['Host', host]] : [];
  let forwarded: string | undefined;
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (dropped.has(lower) || lower.startsWith('impersonate-')) continue;
    if (lower === 'x-forwarded-for') {
      forwarded = forwarded ? `${forwarded}, ${req.rawHeaders[i + 1]!}` : req.rawHeaders[i + 1]!;
      continue;
    }
    out.push([name, req.rawHeaders[i + 1]!]);
  }
  const client = req.socket.remoteAddress;
  if (client) forwarded = forwarded ? `${forwarded}, ${client}` : client;
  if (forwarded) out.push(['X-Forwarded-For', forwarded]);
  return out;
}

/** The backend's answer headers, but the hop-by-hop ones. */
function responseHeaders(res: IncomingMessage): Record<string, string | string[]> {
  const dropped = hopByHop(res.headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined && !dropped.has(name)) out[name] = value;
  return out;
}

/** The raw HTTP/1.1 head of a backend's 101 answer. */
export function switchingHead(res: IncomingMessage): string {
  const lines = [`HTTP/1.1 101 ${res.statusMessage || 'Switching Protocols'}`];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Relays a backend's 101 answer to the client of an upgrade request, then pipes the two connections
 * both ways. False when the client did not ask to upgrade: the backend connection is closed.
 */
export function relayUpgrade(
  upgrade: UpgradeConnection | undefined,
  res: IncomingMessage,
  backend: Duplex,
  head: Buffer,
): boolean {
  if (!upgrade) {
    backend.destroy();
    return false;
  }
  const client = upgrade.socket;
  client.write(switchingHead(res));
  if (head.length) client.write(head);
  if (upgrade.head.length) backend.write(upgrade.head);
  (backend as Duplex & { setTimeout?: (ms: number) => void }).setTimeout?.(0);
  splice(client, backend);
  return true;
}

/** Pipes two sockets both ways; each one's end or failure closes the other. */
export function splice(a: Duplex, b: Duplex): void {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

/** A dial or transport failure as Go's net package words it. */
function transportError(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${host}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${host}: connect: network is unreachable`;
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return `dial tcp ${host}: i/o timeout`;
    case 'ECONNRESET':
      return `read tcp ${host}: read: connection reset by peer`;
    default:
      return err.message;
  }
}

/** The request's path past `.../<name>/proxy` (raw, as sent; empty when nothing follows) and its query. */
export function proxyPath(url: string, name: string, subresource: string): { path: string; query: string } {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  const segments = raw.split('/');
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const at = segments.findIndex((s, i) => i > 0 && s === subresource && decode(segments[i - 1]!) === name);
  const rest = at < 0 ? [] : segments.slice(at + 1);
  return { path: rest.length ? `/${rest.join('/')}` : '', query };
}

/**
 * A proxy subresource (pods/proxy, services/proxy, nodes/proxy) as Kubernetes' UpgradeAwareHandler
 * serves it: every method, the backend `locate` resolves from the `[scheme:]name[:port]` in the
 * path, the rest of the path and the query passed on with the request's body streamed, the answer
 * streamed back with its status and headers (but the hop-by-hop ones), an upgrade's bytes piped both
 * ways; a request for the bare `.../proxy` is redirected to `.../proxy/`. A backend that cannot be
 * reached is a 503.
 */
export function proxyHandler(what: string, locate: ProxyLocator): SubresourceHandler {
  return async (store, request) => {
    const id = splitSchemeNamePort(request.name);
    if (!id) throw statusErrors.badRequest(`invalid ${what} request "${request.name}"`);
    const location = await locate(store, request, id);
    const incoming = request.http;
    if (!incoming) throw statusErrors.internal('a proxy request needs its HTTP request');
    const { path, query } = proxyPath(incoming.url ?? '', request.name, request.subresource);
    if (path === '') {
      const url = incoming.url ?? '';
      const q = url.indexOf('?');
      const to = `${q < 0 ? url : url.slice(0, q)}/${query ? `?${query}` : ''}`;
      return {
        code: 301,
        object: undefined,
        stream: { contentType: '', headers: { location: to }, body: Readable.from([]) },
      };
    }
    const upgrade = upgradeOf(incoming);
    const target = `${path}${query ? `?${query}` : ''}`;
    return new Promise((resolve, reject) => {
      const transport = location.scheme === 'https' ? https : http;
      const req = transport.request({
        ...location.options,
        method: incoming.method ?? 'GET',
        path: target,
        headers: requestHeaders(incoming, Boolean(upgrade), location).flat(),
      });
      req.on('socket', (socket) => {
        // the timeout bounds the dial only: an answer may take as long as the backend needs
        if (socket.connecting) socket.once('connect', () => req.setTimeout(0));
        else req.setTimeout(0);
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })));
      req.on('error', (err: NodeJS.ErrnoException) =>
        reject(
          statusErrors.serviceUnavailable(
            `error trying to reach service: ${transportError(err, location.host)}`,
          ),
        ),
      );
      req.on('upgrade', (res, backend, head) => {
        if (relayUpgrade(upgrade, res, backend, head))
          resolve({ code: 101, object: undefined, upgraded: true });
        else reject(statusErrors.internal('the backend switched protocols on a request that did not ask to'));
      });
      req.on('response', (res) => {
        resolve({
          code: res.statusCode ?? 502,
          object: undefined,
          stream: {
            contentType: res.headers['content-type'] ?? '',
            headers: responseHeaders(res),
            body: res,
          },
        });
      });
      if (upgrade) req.end();
      else incoming.pipe(req);
    });
  };
}
