import https from 'node:https';

export interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface HttpsRequestOptions {
  method?: string;
  body?: unknown;
  /** Request headers; a list is sent as one header line per value. */
  headers?: Record<string, string | string[]>;
  ca?: string;
  cert?: string;
  key?: string;
}

/** One HTTPS request against a test server; the body is sent as JSON unless it is a Buffer or string. */
export function httpsRequest(url: string, options: HttpsRequestOptions = {}): Promise<HttpsResponse> {
  const payload =
    options.body === undefined
      ? undefined
      : Buffer.isBuffer(options.body)
        ? options.body
        : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: options.method ?? 'GET',
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        headers: {
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          let json: unknown;
          try {
            json = JSON.parse(body.toString('utf8'));
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}
