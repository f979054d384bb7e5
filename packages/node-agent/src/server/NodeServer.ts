import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { SecureServer, upgradeOf, type Logger, type RouteHandler, type UserInfo } from '@orch/component-base';
import type { Pod } from '@orch/api';
import type { PodRunner } from '../runtime/PodRunner';
import { readContainerLog, type ReadLogOptions } from '../runtime/process/logReader';
import { serveAttach, serveExec, servePortForward } from './streaming';
import { serveSummary } from '../stats/serveSummary';
import type { SummaryProvider } from '../stats/SummaryProvider';

export interface NodeServerOptions {
  /** --address: the interface served on (empty: all). */
  bindAddress: string;
  /** --port: 0 picks a free one. */
  port: number;
  /** --client-ca-file: client certificates signed by it authenticate; without it every request is refused. */
  clientCAFile: string;
  /** --tls-cert-file / --tls-private-key-file; when empty, the self-signed pair kept in `certDir`. */
  certFile: string;
  keyFile: string;
  /**
   * --cert-dir: where the self-signed pair (kubelet.crt, kubelet.key) is made on the first start and
   * reused after, as the kubelet keeps its own; empty makes a new pair in memory at every start.
   */
  certDir?: string;
  runtime: PodRunner;
  /** The pods bound to the agent's nodes as it knows them, served at /pods. */
  pods?: () => Pod[];
  /** The resource usage of the agent's nodes and pods, served at /stats/summary. */
  stats?: SummaryProvider;
  logger?: Logger;
}

/** A client certificate the client CA verified: its common name and organizations; else refused (401). */
function certificateUser(req: IncomingMessage): UserInfo | null {
  const socket = req.socket as TLSSocket;
  if (!socket.authorized || typeof socket.getPeerCertificate !== 'function') return null;
  const peer = socket.getPeerCertificate();
  const cn = peer?.subject?.CN;
  if (typeof cn !== 'string' || cn === '') return null;
  const org = peer.subject.O;
  const groups = org === undefined ? [] : Array.isArray(org) ? org : [org];
  return { name: cn, groups: [...groups, 'system:authenticated'] };
}

class BadRequest extends Error {}

function boolParam(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null || v === '') return false;
  if (/^(1|t|true)$/i.test(v)) return true;
  if (/^(0|f|false)$/i.test(v)) return false;
  throw new BadRequest(`invalid ${name} "${v}": expected a boolean`);
}

function intParam(q: URLSearchParams, name: string, min: number): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || n < min) throw new BadRequest(`invalid ${name} "${v}"`);
  return n;
}

/** The kubelet's PodLogOptions from a /containerLogs query. */
export function logOptionsFromQuery(
  q: URLSearchParams,
  now = Date.now(),
): ReadLogOptions & { previous: boolean } {
  const options: ReadLogOptions & { previous: boolean } = {
    follow: boolParam(q, 'follow'),
    previous: boolParam(q, 'previous'),
    timestamps: boolParam(q, 'timestamps'),
  };
  const tailLines = intParam(q, 'tailLines', 0);
  if (tailLines !== undefined) options.tailLines = tailLines;
  const limitBytes = intParam(q, 'limitBytes', 1);
  if (limitBytes !== undefined) options.limitBytes = limitBytes;
  const sinceSeconds = intParam(q, 'sinceSeconds', 1);
  const sinceTime = q.get('sinceTime');
  if (sinceSeconds !== undefined && sinceTime)
    throw new BadRequest('at most one of sinceTime or sinceSeconds may be specified');
  if (sinceSeconds !== undefined) options.sinceMs = now - sinceSeconds * 1000;
  if (sinceTime) {
    const t = Date.parse(sinceTime);
    if (Number.isNaN(t)) throw new BadRequest(`invalid sinceTime "${sinceTime}"`);
    options.sinceMs = t;
  }
  return options;
}

function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(text);
}

/**
 * The node agent's HTTPS server, one for all its nodes (the kubelet's port): container logs at
 * `/containerLogs/<namespace>/<pod>/<container>` for callers with a client certificate of the
 * client CA, exec at `/exec/<namespace>/<pod>/<container>`, attach at `/attach/<namespace>/<pod>/<container>` and port forwarding at
 * `/portforward/<namespace>/<pod>` (SPDY/3.1, as the kubelet serves them), the agent's pods at
 * `/pods`, resource usage at `/stats/summary`, plus /healthz.
 */
export class NodeServer {
  private readonly server: SecureServer;
  /** Connections switched to a streaming protocol: closed with the server. */
  private readonly upgraded = new Set<Duplex>();

  constructor(private readonly opts: NodeServerOptions) {
    this.server = new SecureServer({
      serving: {
        bindAddress: opts.bindAddress,
        port: opts.port,
        certDir: opts.certDir ?? '',
        pairName: 'kubelet',
        certFile: opts.certFile,
        keyFile: opts.keyFile,
        sniCertKeys: [],
        minVersion: '',
        cipherSuites: [],
        http2MaxStreamsPerConnection: 0,
        clientCAFile: opts.clientCAFile,
        requestClientCertificates: true,
      },
      ...(opts.logger ? { logger: opts.logger } : {}),
      authenticate: certificateUser,
      // an authenticated caller may read logs (the kubelet's AlwaysAllow authorization mode)
      authorize: () => ({ allowed: true }),
      routes: {
        '/pods': (req, res) => this.podList(req, res),
        '/stats/summary': (req, res, url) => serveSummary(req, res, url, opts.stats),
      },
      prefixRoutes: {
        '/containerLogs/': (req, res, url) => this.containerLogs(req, res, url),
        '/exec/': this.streaming((req, res, url) => serveExec(req, res, url, opts.runtime)),
        '/attach/': this.streaming((req, res, url) => serveAttach(req, res, url, opts.runtime)),
        '/portforward/': this.streaming((req, res, url) => servePortForward(req, res, url, opts.runtime)),
      },
    });
  }

  /** Starts serving; resolves with the bound port. */
  start(): Promise<number> {
    return this.server.start();
  }

  get port(): number | undefined {
    return this.server.port;
  }

  close(): Promise<void> {
    for (const socket of this.upgraded) socket.destroy();
    return this.server.close();
  }

  /** A streaming route whose switched connection is kept until it closes. */
  private streaming(handler: RouteHandler): RouteHandler {
    return async (req, res, url) => {
      const socket = upgradeOf(req)?.socket;
      if (socket) {
        this.upgraded.add(socket);
        socket.once('close', () => this.upgraded.delete(socket));
      }
      await handler(req, res, url);
    };
  }

  /** /pods: a PodList of the agent's pods, as the kubelet serves it. */
  private podList(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'method not allowed\n');
      return;
    }
    const list = { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: this.opts.pods?.() ?? [] };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(list));
  }

  private async containerLogs(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'method not allowed\n');
      return;
    }
    const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
    if (parts.length !== 3 || parts.some((p) => p === '')) {
      sendText(
        res,
        400,
        `container log path "${url.pathname}" must be /containerLogs/<namespace>/<pod>/<container>\n`,
      );
      return;
    }
    const [namespace, pod, container] = parts as [string, string, string];
    let options;
    try {
      options = logOptionsFromQuery(url.searchParams);
    } catch (err) {
      if (!(err instanceof BadRequest)) throw err;
      sendText(res, 400, `${err.message}\n`);
      return;
    }
    const source = this.opts.runtime.containerLog(namespace, pod, container, options.previous);
    if ('code' in source) {
      sendText(res, source.code, `${source.message}\n`);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Content-Type-Options': 'nosniff' });
    if (!source.file || req.method === 'HEAD') {
      res.end();
      return;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    await readContainerLog(
      source.file,
      { ...options, running: source.running, signal: abort.signal },
      (chunk) =>
        new Promise<void>((resolve) => {
          if (res.write(chunk)) resolve();
          else {
            const done = () => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          }
        }),
    ).catch((err: unknown) => this.opts.logger?.error(`reading ${source.file} failed: ${String(err)}`));
    res.end();
  }
}
