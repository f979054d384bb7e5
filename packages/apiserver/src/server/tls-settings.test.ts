import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { generateSelfSignedCertificate, tlsHandshake } from '@orch/component-base';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';

/** The protocol and cipher a handshake with the server settles on, or the handshake's failure. */
async function handshake(
  port: number,
  options: ConnectionOptions,
): Promise<{ protocol: string | null; cipher: string } | { error: string }> {
  const r = await tlsHandshake(port, options);
  return r.ok ? { protocol: r.protocol, cipher: r.cipher } : { error: r.error };
}

/** The SHA-256 fingerprint of the certificate the server presents for `servername`. */
async function servedCertificate(port: number, servername?: string): Promise<string> {
  const r = await tlsHandshake(port, { servername });
  if (!r.ok) throw new Error(r.error);
  return r.fingerprint;
}

const port = (s: TestAPIServer) => Number(new URL(s.url).port);
const pair = () =>
  generateSelfSignedCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ips: ['127.0.0.1'] });

describe('apiserver TLS settings (--tls-min-version, --tls-cipher-suites)', () => {
  const servers: TestAPIServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('by default picks the suite in Go’s order: AES-128-GCM, or ChaCha20 for a client that asks for it first', async () => {
    const s = await startTestAPIServer({ tls: pair() });
    servers.push(s);
    // node's clients list AES-256-GCM first; the server's own order decides
    expect(await handshake(port(s), {})).toEqual({ protocol: 'TLSv1.3', cipher: 'TLS_AES_128_GCM_SHA256' });
    expect(
      await handshake(port(s), {
        ciphers: 'TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256',
      }),
    ).toEqual({ protocol: 'TLSv1.3', cipher: 'TLS_CHACHA20_POLY1305_SHA256' });
    // TLS 1.2 clients are served too
    expect(await handshake(port(s), { maxVersion: 'TLSv1.2' })).toMatchObject({ protocol: 'TLSv1.2' });
  });

  it('refuses versions below --tls-min-version and offers TLS 1.2 clients only the listed suites', async () => {
    const strict = await startTestAPIServer({ tls: { ...pair(), minVersion: 'VersionTLS13' } });
    servers.push(strict);
    expect(await handshake(port(strict), { maxVersion: 'TLSv1.2' })).toHaveProperty('error');
    expect(await handshake(port(strict), {})).toMatchObject({ protocol: 'TLSv1.3' });

    const listed = await startTestAPIServer({
      tls: { ...pair(), cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'] },
    });
    servers.push(listed);
    const tls12 = { maxVersion: 'TLSv1.2' as const };
    expect(
      await handshake(port(listed), { ...tls12, ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' }),
    ).toHaveProperty('error');
    expect(
      await handshake(port(listed), {
        ...tls12,
        ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384',
      }),
    ).toEqual({ protocol: 'TLSv1.2', cipher: 'ECDHE-RSA-AES256-GCM-SHA384' });
  });

  it('serves a --tls-sni-cert-key certificate to clients asking for its name, the default to others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sni-'));
    try {
      const other = generateSelfSignedCertificate({
        commonName: 'api.example.com',
        dnsNames: ['api.example.com'],
      });
      writeFileSync(join(dir, 'sni.crt'), other.cert);
      writeFileSync(join(dir, 'sni.key'), other.key);
      const main = pair();
      const s = await startTestAPIServer({
        tls: {
          ...main,
          sniCertKeys: [{ certFile: join(dir, 'sni.crt'), keyFile: join(dir, 'sni.key'), names: [] }],
        },
      });
      servers.push(s);
      const fingerprint = (pem: string | Buffer) => new X509Certificate(pem).fingerprint256;
      expect(await servedCertificate(port(s), 'api.example.com')).toBe(fingerprint(other.cert));
      expect(await servedCertificate(port(s), 'localhost')).toBe(fingerprint(main.cert));
      expect(await servedCertificate(port(s))).toBe(fingerprint(main.cert));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
