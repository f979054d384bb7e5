import type { IncomingMessage, ServerResponse } from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import * as zlib from 'node:zlib';
import type { Status } from '@orch/api';
import type { KubeObject, WatchEventType } from '../types';
import type { TestPki } from './certs';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
  clientCertCN: string | undefined;
}

interface Watcher {
  res: ServerResponse;
  namespace: string | undefined;
  bookmarks: boolean;
  write(type: WatchEventType, object: unknown): void;
}

interface HistoryEntry {
  rv: number;
  type: WatchEventType;
  object: KubeObject;
}

/** A custom handler; return true when it answered the request. */
export type RequestHook = (req: RecordedRequest, res: ServerResponse) => boolean;

export interface FakeApiServerOptions {
  pki: TestPki;
  /** Bearer token every request must carry, if set. */
  token?: string;
  /** Require a client certificate signed by the CA. */
  requireClientCert?: boolean;
  /** Answer list requests with everything, ignoring limit. */
  ignoreLimit?: boolean;
  /** How to refuse a watch from a compacted version: a 410 answer or a 200 with an ERROR event. */
  goneAs?: 'http' | 'event';
  /** Gzip answers when the client accepts it. */
  gzip?: boolean;
  /**
   * How long an idle connection stays open, in ms (default 500). Node's agent keeps a connection for
   * the next request only when the server's Keep-Alive hint is more than a second.
   */
  keepAliveTimeoutMs?: number;
}

function status(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * A tiny HTTPS API server for tests: one namespaced core resource, `configmaps`, with list
 * (limit/continue), watch (history window, 410 when compacted, bookmarks), get/create/update/delete.
 */
export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  hook: RequestHook | undefined;
  private readonly server: https.Server;
  private readonly objects = new Map<string, KubeObject>();
  private readonly history: HistoryEntry[] = [];
  private readonly watchers = new Set<Watcher>();
  private rv = 100;
  private compactedRv = 0;

  constructor(private readonly opts: FakeApiServerOptions) {
    this.server = https.createServer(
      {
        key: opts.pki.serverKey,
        cert: opts.pki.serverCert,
        ca: opts.pki.caCert,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => this.handle(req, res),
    );
    this.server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 500;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `https://127.0.0.1:${port}`;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  async stop(): Promise<void> {
    this.closeWatches();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Objects currently stored, keyed namespace/name. */
  state(): Map<string, KubeObject> {
    return new Map([...this.objects].map(([k, v]) => [k, clone(v)]));
  }

  private record(type: WatchEventType, obj: KubeObject): KubeObject {
    this.rv++;
    const stored = clone(obj);
    stored.metadata = { ...stored.metadata, resourceVersion: String(this.rv) };
    this.history.push({ rv: this.rv, type, object: stored });
    for (const w of this.watchers) {
      if (!w.namespace || w.namespace === stored.metadata.namespace) {
        w.write(type, stored);
      }
    }
    return stored;
  }

  upsert(obj: KubeObject): KubeObject {
    const key = `${obj.metadata?.namespace}/${obj.metadata?.name}`;
    const existed = this.objects.has(key);
    const stored = this.record(existed ? 'MODIFIED' : 'ADDED', obj);
    this.objects.set(key, stored);
    return stored;
  }

  remove(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const old = this.objects.get(key);
    if (old) {
      this.objects.delete(key);
      this.record('DELETED', old);
    }
  }

  /** Changes the state without telling watchers (as if the events fell out of the window). */
  silently(fn: () => void): void {
    const saved = [...this.watchers];
    this.watchers.clear();
    fn();
    saved.forEach((w) => this.watchers.add(w));
  }

  /** Forgets all history up to now: watches from older versions get 410. */
  compact(): void {
    this.compactedRv = this.rv;
    this.history.length = 0;
  }

  sendBookmark(): void {
    for (const w of this.watchers) {
      if (w.bookmarks) {
        w.write('BOOKMARK', {
          kind: 'ConfigMap',
          apiVersion: 'v1',
          metadata: { resourceVersion: String(this.rv) },
        });
      }
    }
  }

  sendError(s: Status): void {
    for (const w of this.watchers) {
      w.write('ERROR', s);
      w.res.end();
    }
    this.watchers.clear();
  }

  closeWatches(): void {
    for (const w of this.watchers) {
      w.res.end();
    }
    this.watchers.clear();
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as TLSSocket;
      const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'https://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        clientCertCN: peer?.subject?.CN as string | undefined,
      };
      this.requests.push(recorded);
      if (this.opts.requireClientCert && !recorded.clientCertCN) {
        this.send(req, res, 401, status(401, 'Unauthorized', 'Unauthorized'));
        return;
      }
      if (this.opts.token && req.headers.authorization !== `Bearer ${this.opts.token}`) {
        this.send(req, res, 401, status(401, 'Unauthorized', 'Unauthorized'));
        return;
      }
      if (this.hook?.(recorded, res)) {
        return;
      }
      this.route(recorded, req, res);
    });
  }

  private send(req: IncomingMessage, res: ServerResponse, code: number, body: unknown): void {
    let data = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.opts.gzip && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
      data = zlib.gzipSync(data);
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(code, headers);
    res.end(data);
  }

  private route(r: RecordedRequest, req: IncomingMessage, res: ServerResponse): void {
    const m = /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?configmaps(?:\/([^/]+))?$/.exec(r.url.pathname);
    if (!m) {
      this.send(req, res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      return;
    }
    const namespace = m[1];
    const name = m[2];
    const q = r.url.searchParams;
    if (r.method === 'GET' && !name && (q.get('watch') === 'true' || q.get('watch') === '1')) {
      this.watch(req, res, namespace, q);
      return;
    }
    if (r.method === 'GET' && !name) {
      this.list(req, res, namespace, q);
      return;
    }
    const key = `${namespace}/${name}`;
    if (r.method === 'GET') {
      const obj = this.objects.get(key);
      if (!obj) {
        this.send(req, res, 404, status(404, 'NotFound', `configmaps "${name}" not found`));
      } else {
        this.send(req, res, 200, obj);
      }
      return;
    }
    if (r.method === 'POST') {
      const obj = JSON.parse(r.body) as KubeObject;
      const k = `${namespace}/${obj.metadata?.name}`;
      if (this.objects.has(k)) {
        this.send(
          req,
          res,
          409,
          status(409, 'AlreadyExists', `configmaps "${obj.metadata?.name}" already exists`),
        );
        return;
      }
      this.send(req, res, 201, this.upsert({ ...obj, metadata: { ...obj.metadata, namespace } }));
      return;
    }
    if (r.method === 'DELETE' && name) {
      this.remove(namespace ?? '', name);
      this.send(req, res, 200, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        code: 200,
      });
      return;
    }
    this.send(req, res, 405, status(405, 'MethodNotAllowed', 'method not allowed'));
  }

  private list(
    req: IncomingMessage,
    res: ServerResponse,
    namespace: string | undefined,
    q: URLSearchParams,
  ): void {
    const all = [...this.objects.entries()]
      .filter(([, o]) => !namespace || o.metadata?.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const limit = Number(q.get('limit') ?? 0);
    let start = 0;
    let listRv = this.rv;
    const cont = q.get('continue');
    if (cont) {
      const token = JSON.parse(Buffer.from(cont, 'base64').toString('utf8')) as { rv: number; after: string };
      if (token.rv < this.compactedRv) {
        this.send(req, res, 410, status(410, 'Expired', 'The provided continue parameter is too old'));
        return;
      }
      listRv = token.rv;
      start = all.findIndex(([k]) => k > token.after);
      if (start < 0) {
        start = all.length;
      }
    }
    let items = all.slice(start);
    let next: string | undefined;
    if (limit > 0 && !this.opts.ignoreLimit && items.length > limit) {
      items = items.slice(0, limit);
      const after = items[items.length - 1]![0];
      next = Buffer.from(JSON.stringify({ rv: listRv, after })).toString('base64');
    }
    this.send(req, res, 200, {
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(listRv), ...(next ? { continue: next } : {}) },
      items: items.map(([, o]) => o),
    });
  }

  private watch(
    req: IncomingMessage,
    res: ServerResponse,
    namespace: string | undefined,
    q: URLSearchParams,
  ): void {
    const from = Number(q.get('resourceVersion') || this.rv);
    if (from < this.compactedRv) {
      const gone = status(410, 'Expired', `too old resource version: ${from} (${this.compactedRv})`);
      if (this.opts.goneAs === 'event') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ type: 'ERROR', object: gone }) + '\n');
      } else {
        this.send(req, res, 410, gone);
      }
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const watcher: Watcher = {
      res,
      namespace,
      bookmarks: q.get('allowWatchBookmarks') === 'true',
      write: (type, object) => res.write(JSON.stringify({ type, object }) + '\n'),
    };
    for (const h of this.history) {
      if (h.rv > from && (!namespace || h.object.metadata?.namespace === namespace)) {
        watcher.write(h.type, h.object);
      }
    }
    this.watchers.add(watcher);
    res.on('close', () => this.watchers.delete(watcher));
  }
}
