import type { Readable } from 'node:stream';
import type { WatchEvent } from '../types';
import { asWatchEvent, WatchStream } from '../watch/WatchStream';
import { JSON_MEDIA_TYPE } from './Codec';
import type { RawResponse, RestClient } from './RestClient';
import { isStatusObject, StatusError, statusErrorFromResponse } from './StatusError';

export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | string[] | undefined;

/** Query parameters of the resource API that the builder knows by name. */
export interface QueryParams {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  watch?: boolean;
  /** "All" or a list of dry-run stages. */
  dryRun?: string | string[];
  fieldManager?: string;
  force?: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  pretty?: boolean;
}

export const PatchType = {
  Json: 'application/json-patch+json',
  Merge: 'application/merge-patch+json',
  StrategicMerge: 'application/strategic-merge-patch+json',
  Apply: 'application/apply-patch+yaml',
} as const;

/** Reads a whole stream into a buffer. */
function readAll(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/**
 * Builds one API request: `/api/v1` or `/apis/{group}/{version}`, then optional
 * `namespaces/{namespace}`, resource, name and subresource, plus query parameters.
 */
export class Request {
  private groupName = '';
  private versionName = 'v1';
  private absolutePath: string | undefined;
  private namespaceName: string | undefined;
  private resourceName: string | undefined;
  private objectName: string | undefined;
  private subresourceName: string | undefined;
  private readonly query = new URLSearchParams();
  private readonly headers: Record<string, string> = {};
  private bodyBytes: Buffer | undefined;
  private timeoutMs: number | undefined;
  private abortSignal: AbortSignal | undefined;

  constructor(
    private readonly client: RestClient,
    readonly method: Verb,
  ) {
    this.timeoutMs = client.config.timeoutMs;
  }

  group(group: string): this {
    this.groupName = group;
    return this;
  }

  version(version: string): this {
    this.versionName = version;
    return this;
  }

  /** Uses a literal path (below the server's base path) instead of the group/version layout. */
  absPath(path: string): this {
    this.absolutePath = path.startsWith('/') ? path : `/${path}`;
    return this;
  }

  /** Namespace segment; an empty string means none (all namespaces for a list). */
  namespace(namespace: string | undefined): this {
    this.namespaceName = namespace || undefined;
    return this;
  }

  resource(resource: string): this {
    this.resourceName = resource;
    return this;
  }

  name(name: string): this {
    if (!name) {
      throw new Error('resource name may not be empty');
    }
    this.objectName = name;
    return this;
  }

  subresource(subresource: string): this {
    this.subresourceName = subresource;
    return this;
  }

  param(key: string, value: QueryValue): this {
    if (value === undefined) {
      return this;
    }
    this.query.delete(key);
    for (const v of Array.isArray(value) ? value : [value]) {
      this.query.append(key, String(v));
    }
    return this;
  }

  params(params: QueryParams | Record<string, QueryValue>): this {
    for (const [key, value] of Object.entries(params)) {
      this.param(key, value as QueryValue);
    }
    return this;
  }

  setHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  /** Body: an object is encoded with the client's body codec; a Buffer/string is sent as is. */
  body(body: unknown, contentType?: string): this {
    if (Buffer.isBuffer(body) || typeof body === 'string') {
      this.bodyBytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
      this.headers['Content-Type'] = contentType ?? JSON_MEDIA_TYPE;
    } else {
      const codec = this.client.codecs.codecForBody(body, contentType);
      this.bodyBytes = codec.encode(body);
      this.headers['Content-Type'] = codec.mediaType;
    }
    return this;
  }

  /** Client-side timeout for non-streaming calls; 0 disables it. */
  timeout(ms: number): this {
    this.timeoutMs = ms;
    return this;
  }

  signal(signal: AbortSignal): this {
    this.abortSignal = signal;
    return this;
  }

  /** The path and query string, below the server's base path. */
  url(): string {
    let path: string;
    if (this.absolutePath !== undefined) {
      path = this.absolutePath;
    } else {
      path = this.groupName ? `/apis/${this.groupName}/${this.versionName}` : `/api/${this.versionName}`;
    }
    const segments: string[] = [];
    if (this.namespaceName !== undefined) {
      segments.push('namespaces', this.namespaceName);
    }
    if (this.resourceName !== undefined) {
      segments.push(this.resourceName);
    }
    if (this.objectName !== undefined) {
      segments.push(this.objectName);
    }
    if (this.subresourceName !== undefined) {
      segments.push(this.subresourceName);
    }
    for (const s of segments) {
      path += `/${encodeURIComponent(s)}`;
    }
    const qs = this.query.toString();
    return qs ? `${path}?${qs}` : path;
  }

  private send(signal: AbortSignal | undefined): Promise<RawResponse> {
    return this.client.send(this.method, this.url(), this.headers, this.bodyBytes, signal);
  }

  /** Sends the request and decodes the answer; a failure status rejects with a StatusError. */
  async do<T = unknown>(): Promise<T> {
    const signals = [
      this.abortSignal,
      this.timeoutMs ? AbortSignal.timeout(this.timeoutMs) : undefined,
    ].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const res = await this.send(signal);
    const data = await readAll(res.body);
    if (res.statusCode < 200 || res.statusCode > 299) {
      throw this.errorFor(res, data);
    }
    if (data.length === 0) {
      return undefined as T;
    }
    const codec = this.client.codecs.forContentType(res.headers['content-type']);
    if (!codec) {
      throw new Error(`unsupported response content type ${res.headers['content-type']}`);
    }
    return codec.decode(data) as T;
  }

  /** Sends the request and resolves with the response stream once a 2xx status arrives. */
  async stream(): Promise<RawResponse> {
    const res = await this.send(this.abortSignal);
    if (res.statusCode < 200 || res.statusCode > 299) {
      const data = await readAll(res.body);
      throw this.errorFor(res, data);
    }
    return res;
  }

  /** Starts a watch (sets watch=true) and returns its event stream. */
  async watch<T = unknown>(): Promise<WatchStream<T>> {
    this.param('watch', true);
    const res = await this.stream();
    const codec = this.client.codecs.forContentType(res.headers['content-type']);
    if (!codec) {
      res.cancel();
      throw new Error(`unsupported watch content type ${res.headers['content-type']}`);
    }
    const decode = (frame: Buffer): WatchEvent<T> =>
      asWatchEvent<T>(codec.decodeWatchEvent ? codec.decodeWatchEvent(frame) : codec.decode(frame));
    return new WatchStream<T>(res.body, codec.newFramer(), decode, res.cancel);
  }

  private errorFor(res: RawResponse, data: Buffer): StatusError {
    const retryAfter = res.headers['retry-after'];
    const retryAfterSeconds =
      typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? parseInt(retryAfter, 10) : undefined;
    const codec = this.client.codecs.forContentType(res.headers['content-type']);
    if (codec && data.length > 0) {
      try {
        const decoded = codec.decode(data);
        if (isStatusObject(decoded)) {
          return new StatusError({ ...decoded, code: decoded.code || res.statusCode });
        }
      } catch {
        // not a Status: fall through to the generic error
      }
    }
    return statusErrorFromResponse(res.statusCode, data.toString('utf8'), retryAfterSeconds);
  }
}
