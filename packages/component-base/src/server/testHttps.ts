import { request } from 'node:https';
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';

/** A response read fully (test helper). */
export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GETs a path from a local HTTPS server without verifying its certificate (test helper). */
export function httpsGet(
  port: number,
  path: string,
  extra: { cert?: string; key?: string } = {},
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, rejectUnauthorized: false, agent: false, ...extra },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Completes a TLS handshake and reports what was negotiated, or the error (test helper). */
export function tlsHandshake(
  port: number,
  options: ConnectionOptions,
): Promise<
  { ok: true; protocol: string | null; cipher: string; fingerprint: string } | { ok: false; error: string }
> {
  return new Promise((resolve) => {
    const socket: TLSSocket = connect(
      { host: '127.0.0.1', port, rejectUnauthorized: false, ...options },
      () => {
        const result = {
          ok: true as const,
          protocol: socket.getProtocol(),
          cipher: socket.getCipher().name,
          fingerprint: socket.getPeerCertificate().fingerprint256,
        };
        socket.end();
        resolve(result);
      },
    );
    socket.on('error', (err) => {
      socket.destroy();
      resolve({ ok: false, error: err.message });
    });
  });
}
