/** Everything needed to reach an API server. */
export interface RestConfig {
  /** Base URL, e.g. https://10.0.0.1:6443 (a path prefix is kept). */
  server: string;
  /** PEM CA bundle used to verify the server. */
  ca?: Buffer;
  /** PEM client certificate and key. */
  cert?: Buffer;
  key?: Buffer;
  /** Static bearer token. */
  token?: string;
  /** File holding a bearer token; re-read periodically so rotated tokens are picked up. */
  tokenFile?: string;
  /** Basic authentication. */
  username?: string;
  password?: string;
  /** Skip server certificate verification. */
  insecure?: boolean;
  /** Server name used for SNI and certificate verification instead of the URL host. */
  tlsServerName?: string;
  userAgent?: string;
  /** Requests per second; 0 means the default (5), a negative value means unlimited. */
  qps?: number;
  /** Burst; 0 means the default (10). */
  burst?: number;
  /** Preferred media type for bodies and responses; JSON when unset. */
  contentType?: string;
  /** Accept header override. */
  acceptContentTypes?: string;
  /** Timeout for non-streaming requests in milliseconds; 0 or unset means none. */
  timeoutMs?: number;
}

export const DEFAULT_QPS = 5;
export const DEFAULT_BURST = 10;
