import * as http from 'node:http';
import * as https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { createSecureContext } from 'node:tls';
import * as zlib from 'node:zlib';
import { FileTokenSource } from '../kubeconfig/FileTokenSource';
import { sleep } from '../util/sleep';
import type { CodecRegistry } from './Codec';
import { defaultCodecRegistry } from './defaultCodecRegistry';
import { DEFAULT_BURST, DEFAULT_QPS, type RestConfig } from './RestConfig';
import { Request, type Verb } from './Request';
import { TokenBucket, unlimitedRateLimiter, type RequestRateLimiter } from './TokenBucket';
import { buildUserAgent } from './userAgent';

/** Retries of a request answered with 429 or 5xx and a Retry-After header, as client-go does. */
export const DEFAULT_MAX_RETRIES = 10;

export interface RestClientOptions {
  codecs?: CodecRegistry;
  /** Overrides the token bucket built from the config's qps/burst. */
  rateLimiter?: RequestRateLimiter;
  maxRetries?: number;
  /** Maximum sockets per host; each HTTP/1.1 watch holds one. */
  maxSockets?: number;
  /** Longest wait honoured for one Retry-After, in milliseconds. */
  maxRetryAfterMs?: number;
}

/** A raw answer: status, headers and (possibly decompressed) body stream. */
export interface RawResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: Readable;
  /** Aborts the request. */
  cancel(): void;
}

/** Builds the request rate limiter client-go would: qps 0 → 5, burst 0 → 10, qps < 0 → unlimited. */
export function rateLimiterForConfig(config: RestConfig): RequestRateLimiter {
  const qps = config.qps === undefined || config.qps === 0 ? DEFAULT_QPS : config.qps;
  const burst = config.burst === undefined || config.burst === 0 ? DEFAULT_BURST : config.burst;
  return qps > 0 ? new TokenBucket(qps, Math.max(1, burst)) : unlimitedRateLimiter;
}

/** Seconds from a Retry-After header holding an integer, as client-go reads it. */
function retryAfterSeconds(headers: http.IncomingHttpHeaders): number | undefined {
  const value = headers['retry-after'];
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) {
    return undefined;
  }
  return parseInt(value, 10);
}

/** A client for one API server: HTTPS with keep-alive, auth, rate limiting, retries and codecs. */
export class RestClient {
  readonly config: RestConfig;
  readonly codecs: CodecRegistry;
  readonly userAgent: string;
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly rateLimiter: RequestRateLimiter;
  private readonly maxRetries: number;
  private readonly maxRetryAfterMs: number;
  private readonly tokenSource: FileTokenSource | undefined;

  constructor(config: RestConfig, options: RestClientOptions = {}) {
    this.config = config;
    this.base = new URL(config.server);
    if (this.base.protocol !== 'https:' && this.base.protocol !== 'http:') {
      throw new Error(`unsupported server URL ${config.server}`);
    }
    this.codecs = options.codecs ?? defaultCodecRegistry(config.contentType);
    this.userAgent = config.userAgent ?? buildUserAgent();
    this.rateLimiter = options.rateLimiter ?? rateLimiterForConfig(config);
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.tokenSource = config.tokenFile ? new FileTokenSource(config.tokenFile) : undefined;
    const agentOptions: https.AgentOptions = {
      keepAlive: true,
      maxSockets: options.maxSockets ?? 256,
      // Connections opened for a burst stay open until the server closes them idle (the apiserver
      // after 2 minutes): closing all but a few as soon as they were free, the next burst opened
      // them again, a TLS handshake each, over and over for a scheduler binding a backlog of pods.
      maxFreeSockets: options.maxSockets ?? 256,
    };
    if (this.base.protocol === 'https:') {
      this.agent = new https.Agent({
        ...agentOptions,
        // One TLS context for every connection: given as ca, cert and key instead, each new
        // connection parses them again, and every request's pool name is built from their text.
        secureContext: createSecureContext({ ca: config.ca, cert: config.cert, key: config.key }),
        rejectUnauthorized: !config.insecure,
        ...(config.tlsServerName ? { servername: config.tlsServerName } : {}),
      });
    } else {
      this.agent = new http.Agent(agentOptions);
    }
  }

  verb(verb: Verb): Request {
    return new Request(this, verb);
  }

  get(): Request {
    return this.verb('GET');
  }

  post(): Request {
    return this.verb('POST');
  }

  put(): Request {
    return this.verb('PUT');
  }

  patch(): Request {
    return this.verb('PATCH');
  }

  delete(): Request {
    return this.verb('DELETE');
  }

  /** Closes idle keep-alive connections and destroys the agent's sockets. */
  close(): void {
    this.agent.destroy();
  }

  /** Base path of the server URL (without trailing slash), prefixed to every request path. */
  get basePath(): string {
    return this.base.pathname.replace(/\/+$/, '');
  }

  private authorization(): string | undefined {
    if (this.tokenSource) {
      return `Bearer ${this.tokenSource.token()}`;
    }
    if (this.config.token) {
      return `Bearer ${this.config.token}`;
    }
    if (this.config.username !== undefined || this.config.password !== undefined) {
      const pair = `${this.config.username ?? ''}:${this.config.password ?? ''}`;
      return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
    }
    return undefined;
  }

  /**
   * Sends a request, waiting on the rate limiter before every attempt and retrying answers with
   * status 429 or 5xx carrying Retry-After (bounded). Resolves once the response headers arrive.
   */
  async send(
    method: Verb,
    pathAndQuery: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    for (let attempt = 0; ; attempt++) {
      await this.rateLimiter.wait(signal);
      const res = await this.sendOnce(method, pathAndQuery, headers, body, signal);
      const wait = retryAfterSeconds(res.headers);
      const retryable = res.statusCode === 429 || res.statusCode >= 500;
      if (!retryable || wait === undefined || attempt >= this.maxRetries) {
        return res;
      }
      res.body.resume();
      res.cancel();
      await sleep(Math.min(wait * 1000, this.maxRetryAfterMs), signal);
    }
  }

  private sendOnce(
    method: Verb,
    pathAndQuery: string,
    extraHeaders: Record<string, string>,
    body: Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    const headers: Record<string, string> = {
      'User-Agent': this.userAgent,
      'Accept-Encoding': 'gzip',
      Accept: this.config.acceptContentTypes ?? this.codecs.accept(),
      ...extraHeaders,
    };
    const auth = this.authorization();
    if (auth) {
      headers['Authorization'] = auth;
    }
    if (body) {
      headers['Content-Length'] = String(body.length);
    }
    const transport = this.base.protocol === 'https:' ? https : http;
    return new Promise<RawResponse>((resolve, reject) => {
      const req = transport.request(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
          port: this.base.port || (this.base.protocol === 'https:' ? 443 : 80),
          method,
          path: this.basePath + pathAndQuery,
          headers,
          agent: this.agent,
          signal,
        },
        (res) => {
          let stream: Readable = res;
          if ((res.headers['content-encoding'] ?? '').toLowerCase() === 'gzip') {
            stream = pipeline(res, zlib.createGunzip(), () => undefined);
          }
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body: stream,
            cancel: () => {
              req.destroy();
              res.destroy();
            },
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
