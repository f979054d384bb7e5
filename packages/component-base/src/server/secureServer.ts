import { createServer as createPlainServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Registry } from './metricsRegistry';
import type { Logger } from '../logs/logger';
import { version as orchVersion, type VersionInfo } from '../version/version';
import {
  certificateOrAnonymous,
  denyAll,
  isAlwaysAllowed,
  type Authenticate,
  type Authorize,
} from './delegatedAuth';
import { HEALTH_ENDPOINTS, HealthChecks, type HealthEndpoint } from './healthChecks';
import { cpuProfile, heapSnapshot } from './profiling';
import type { SecureServingOptions } from './secureServingOptions';
import { failureStatus } from './status';
import { tlsServerOptions } from './tlsServerOptions';
import { errorMessage } from '../errorMessage';
import { serveUpgrades } from './upgrade';

/** Serves one extra route. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** Everything a daemon's secure server needs. */
export interface SecureServerOptions {
  serving: SecureServingOptions;
  logger?: Logger;
  /** Identifies users; defaults to client certificate or anonymous. */
  authenticate?: Authenticate;
  /** Authorizes paths not on the always-allow list; defaults to forbidding them. */
  authorize?: Authorize;
  /** Paths authorized without asking (--authorization-always-allow-paths). */
  alwaysAllowPaths?: readonly string[];
  health?: HealthChecks;
  metrics?: Registry;
  /** The daemon's configuration, served as JSON at /configz. */
  configz?: () => unknown;
  /** Serves /debug/pprof/ (--profiling). */
  profiling?: boolean;
  version?: VersionInfo;
  /** Extra exact-path routes. */
  routes?: Readonly<Record<string, RouteHandler>>;
  /** Extra routes serving every path that starts with their key (`/containerLogs/`). */
  prefixRoutes?: Readonly<Record<string, RouteHandler>>;
  /**
   * Plain HTTP without authentication or authorization (the scheduler's deprecated insecure --port):
   * only `serving.bindAddress` and `serving.port` are read.
   */
  insecure?: boolean;
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'Content-Type': contentType, 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

function sendStatus(res: ServerResponse, code: number, reason: string, message: string): void {
  send(res, code, 'application/json', JSON.stringify(failureStatus(code, reason, message)));
}

/** An HTTPS server with the endpoints every daemon serves: health, metrics, configz and pprof. */
export class SecureServer {
  readonly health: HealthChecks;
  readonly metrics: Registry;
  private server: Server | ReturnType<typeof createPlainServer> | undefined;

  constructor(private readonly options: SecureServerOptions) {
    this.health = options.health ?? new HealthChecks();
    this.metrics = options.metrics ?? new Registry();
  }

  /** Starts listening; resolves with the bound port (useful with --secure-port picked by the OS). */
  async start(listenPort = this.options.serving.port): Promise<number> {
    const { serving, logger } = this.options;
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      this.handle(req, res).catch((err: unknown) => {
        logger?.error(`request ${req.url} failed: ${errorMessage(err)}`);
        if (!res.headersSent)
          sendStatus(
            res,
            500,
            'InternalError',
            'an error on the server prevented the request from succeeding',
          );
        else res.end();
      });
    };
    const server = this.options.insecure
      ? createPlainServer(handler)
      : createServer(tlsServerOptions(serving), handler);
    // Upgrade requests (kubectl exec's SPDY) go through the same authentication and routes
    serveUpgrades(server, handler);
    if (!this.options.insecure && serving.http2MaxStreamsPerConnection > 0) {
      logger?.info(
        `--http2-max-streams-per-connection=${serving.http2MaxStreamsPerConnection} accepted; this server speaks HTTP/1.1 so the limit has no effect`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const host = serving.bindAddress === '' ? undefined : serving.bindAddress;
      server.listen(listenPort, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const port = (server.address() as AddressInfo).port;
    logger?.info(
      `Serving ${this.options.insecure ? 'insecurely' : 'securely'} on ${serving.bindAddress.includes(':') ? `[${serving.bindAddress}]` : serving.bindAddress}:${port}`,
    );
    return port;
  }

  /** The bound port, or undefined when not listening. */
  get port(): number | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  /** Stops accepting connections and closes open ones. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://localhost');
    if (this.options.insecure) {
      await this.route(req, res, url);
      return;
    }
    const path = url.pathname;
    const user = await (this.options.authenticate ?? certificateOrAnonymous)(req);
    if (!user) {
      sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
      return;
    }
    const verb = (req.method ?? 'GET').toLowerCase();
    if (!isAlwaysAllowed(path, this.options.alwaysAllowPaths ?? ['/healthz'])) {
      const decision = await (this.options.authorize ?? denyAll)(user, path, verb);
      if (!decision.allowed) {
        const reason = decision.reason ? `: ${decision.reason}` : '';
        sendStatus(
          res,
          403,
          'Forbidden',
          `forbidden: User "${user.name}" cannot ${verb} path "${path}"${reason}`,
        );
        return;
      }
    }
    await this.route(req, res, url);
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const [, first = '', ...rest] = path.split('/');
    if ((HEALTH_ENDPOINTS as readonly string[]).includes(first)) {
      const answer = await this.health.handle(first as HealthEndpoint, rest.join('/'), url.searchParams);
      send(res, answer.status, 'text/plain; charset=utf-8', answer.body);
      return;
    }
    const extra = this.options.routes?.[path];
    if (extra) {
      await extra(req, res, url);
      return;
    }
    for (const [prefix, handler] of Object.entries(this.options.prefixRoutes ?? {})) {
      if (path.startsWith(prefix)) {
        await handler(req, res, url);
        return;
      }
    }
    switch (path) {
      case '/metrics':
        send(res, 200, this.metrics.contentType, await this.metrics.metrics());
        return;
      case '/configz':
        send(res, 200, 'application/json', JSON.stringify(this.options.configz?.() ?? {}));
        return;
      case '/version':
        send(res, 200, 'application/json', JSON.stringify(this.options.version ?? orchVersion, null, 2));
        return;
    }
    if (this.options.profiling && path.startsWith('/debug/pprof')) {
      await this.pprof(res, path, url);
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
  }

  private async pprof(res: ServerResponse, path: string, url: URL): Promise<void> {
    if (path === '/debug/pprof' || path === '/debug/pprof/') {
      send(
        res,
        200,
        'text/html; charset=utf-8',
        '<html><body>/debug/pprof/<br><a href="profile?seconds=30">profile</a><br><a href="heap">heap</a></body></html>\n',
      );
    } else if (path === '/debug/pprof/profile') {
      const raw = url.searchParams.get('seconds') ?? '30';
      const seconds = Number(raw);
      if (!Number.isFinite(seconds) || seconds <= 0) {
        sendStatus(res, 400, 'BadRequest', `invalid seconds "${raw}"`);
        return;
      }
      const profile = await cpuProfile(seconds);
      res.setHeader('Content-Disposition', 'attachment; filename="profile.cpuprofile"');
      send(res, 200, 'application/json', profile);
    } else if (path === '/debug/pprof/heap') {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Disposition': 'attachment; filename="heap.heapsnapshot"',
        'X-Content-Type-Options': 'nosniff',
      });
      await heapSnapshot((chunk) => res.write(chunk));
      res.end();
    } else {
      send(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
    }
  }
}
