import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Counter, Registry } from 'prom-client';
import { FlagError } from '../options/flagError';
import { HealthChecks } from './healthChecks';
import { SecureServer, type SecureServerOptions } from './secureServer';
import type { SecureServingOptions } from './secureServingOptions';
import {
  ensureSelfSignedCertKey,
  generateSelfSignedCertificate,
  generateSelfSignedCertKey,
} from './selfSignedCert';
import { certificateNames, SniSelector } from './sniSelector';
import { httpsGet, tlsHandshake } from './testHttps';
import { opensslCipherList, tlsMinVersion } from './tlsSettings';

const SERVING: SecureServingOptions = {
  bindAddress: '127.0.0.1',
  port: 0,
  certDir: '',
  pairName: 'orch-test',
  certFile: '',
  keyFile: '',
  sniCertKeys: [],
  minVersion: '',
  cipherSuites: [],
  http2MaxStreamsPerConnection: 0,
  clientCAFile: '',
};

const fingerprint = (pem: string): string => new X509Certificate(pem).fingerprint256;

let dir: string;
const servers: SecureServer[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'orch-serving-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(
  options: Omit<Partial<SecureServerOptions>, 'serving'> & { serving?: Partial<SecureServingOptions> } = {},
) {
  const server = new SecureServer({ ...options, serving: { ...SERVING, ...options.serving } });
  servers.push(server);
  const port = await server.start();
  return { server, port };
}

describe('self-signed certificates', () => {
  it('generates a CA-less pair for the host and localhost, saves it and reuses it', () => {
    const certDir = join(dir, 'certs');
    const first = ensureSelfSignedCertKey(certDir, 'orch-scheduler', '10.1.2.3');
    expect(first.generated).toBe(true);
    expect(first.certPath).toBe(join(certDir, 'orch-scheduler.crt'));
    expect(statSync(first.keyPath).mode & 0o777).toBe(0o600);
    const x509 = new X509Certificate(first.cert);
    expect(x509.subject).toBe(x509.issuer);
    expect(x509.ca).toBe(false);
    expect(x509.subjectAltName).toContain('DNS:localhost');
    expect(x509.subjectAltName).toContain('IP Address:10.1.2.3');
    expect(x509.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(x509.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(x509.checkPrivateKey(createPrivateKey(first.key))).toBe(true);
    const second = ensureSelfSignedCertKey(certDir, 'orch-scheduler', '10.1.2.3');
    expect(second.generated).toBe(false);
    expect(second.cert).toBe(first.cert);
  });

  it('the server serves the certificate saved in --cert-dir and the same one after a restart', async () => {
    const certDir = join(dir, 'restart');
    const a = await start({ serving: { certDir } });
    const shakeA = await tlsHandshake(a.port, {});
    await a.server.close();
    const b = await start({ serving: { certDir } });
    const shakeB = await tlsHandshake(b.port, {});
    expect(shakeA.ok && shakeB.ok && shakeA.fingerprint === shakeB.fingerprint).toBe(true);
    const saved = ensureSelfSignedCertKey(certDir, 'orch-test', 'x');
    expect(shakeA.ok && shakeA.fingerprint).toBe(fingerprint(saved.cert));
  });
});

describe('SNI certificate selection', () => {
  const a = generateSelfSignedCertKey('a.example.com');
  const wildcard = generateSelfSignedCertKey('*.example.com');
  const other = generateSelfSignedCertKey('other.io');
  const other2 = generateSelfSignedCertKey('other2.io');

  it('extracts DNS and IP names from certificates', () => {
    expect(certificateNames(a.cert)).toEqual(
      expect.arrayContaining(['a.example.com', 'localhost', '127.0.0.1']),
    );
  });

  it('exact beats wildcard', () => {
    const sel = new SniSelector([
      { ...wildcard, names: [] },
      { ...a, names: [] },
    ]);
    expect(sel.select('a.example.com')).toBe(1);
    expect(sel.select('z.example.com')).toBe(0);
    expect(sel.select('deep.z.example.com')).toBeUndefined();
    expect(sel.select('nothing.io')).toBeUndefined();
  });

  it('explicit patterns beat names extracted from certificates', () => {
    const sel = new SniSelector([
      { ...a, names: [] },
      { ...other, names: ['a.example.com'] },
    ]);
    expect(sel.select('a.example.com')).toBe(1);
    expect(sel.select('other.io')).toBeUndefined();
  });

  it('an exact extracted name beats an explicit wildcard; the first of equals wins', () => {
    const sel = new SniSelector([
      { ...other, names: ['*.example.com'] },
      { ...a, names: [] },
      { ...other2, names: ['*.example.com', 'B.IO'] },
    ]);
    expect(sel.select('a.example.com')).toBe(1);
    expect(sel.select('q.example.com')).toBe(0);
    expect(sel.select('b.io')).toBe(2);
  });

  it('a real handshake gets the SNI certificate, and the default one otherwise', async () => {
    const files = (name: string, pair: { cert: string; key: string }) => {
      writeFileSync(join(dir, `${name}.crt`), pair.cert);
      writeFileSync(join(dir, `${name}.key`), pair.key);
      return { certFile: join(dir, `${name}.crt`), keyFile: join(dir, `${name}.key`) };
    };
    const def = generateSelfSignedCertKey('default.io');
    const { port } = await start({
      serving: {
        ...files('default', def),
        sniCertKeys: [
          { ...files('wild', wildcard), names: [] },
          { ...files('other', other), names: ['foo.io'] },
        ],
      },
    });
    const byName = async (servername: string) => {
      const r = await tlsHandshake(port, { servername });
      return r.ok ? r.fingerprint : r.error;
    };
    expect(await byName('x.example.com')).toBe(fingerprint(wildcard.cert));
    expect(await byName('foo.io')).toBe(fingerprint(other.cert));
    expect(await byName('unknown.io')).toBe(fingerprint(def.cert));
  });
});

describe('TLS versions and cipher suites', () => {
  it('maps Go names to node/OpenSSL names and rejects what node cannot offer', () => {
    expect(tlsMinVersion('VersionTLS12')).toBe('TLSv1.2');
    expect(tlsMinVersion('')).toBeUndefined();
    expect(() => tlsMinVersion('SSLv3')).toThrow(FlagError);
    expect(opensslCipherList(['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_RSA_WITH_AES_256_CBC_SHA'])).toBe(
      'TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_256_GCM_SHA384:ECDHE-RSA-AES128-GCM-SHA256:AES256-SHA',
    );
    // no list: the TLS 1.3 suites in Go's order, then the runtime's TLS 1.2 defaults
    const defaults = opensslCipherList([]).split(':');
    expect(defaults.slice(0, 3)).toEqual([
      'TLS_AES_128_GCM_SHA256',
      'TLS_CHACHA20_POLY1305_SHA256',
      'TLS_AES_256_GCM_SHA384',
    ]);
    expect(defaults).toContain('ECDHE-RSA-AES128-GCM-SHA256');
    expect(() => opensslCipherList(['TLS_RSA_WITH_3DES_EDE_CBC_SHA'])).toThrow(
      /^--tls-cipher-suites: cipher suite TLS_RSA_WITH_3DES_EDE_CBC_SHA is insecure/,
    );
    expect(() => opensslCipherList(['TLS_ECDHE_ECDSA_WITH_RC4_128_SHA'])).toThrow(
      /TLS_ECDHE_ECDSA_WITH_RC4_128_SHA/,
    );
  });

  it('enforces --tls-min-version in a real handshake', async () => {
    const { port } = await start({ serving: { minVersion: 'VersionTLS13' } });
    const old = await tlsHandshake(port, { maxVersion: 'TLSv1.2' });
    expect(old.ok).toBe(false);
    const modern = await tlsHandshake(port, {});
    expect(modern.ok && modern.protocol).toBe('TLSv1.3');
  });

  it('chooses by its own order, as Go servers do, unless the client asks for ChaCha20 first', async () => {
    const { port } = await start({});
    // node's clients list TLS_AES_256_GCM_SHA384 first
    expect(await tlsHandshake(port, {})).toMatchObject({ ok: true, cipher: 'TLS_AES_128_GCM_SHA256' });
    const chacha = await tlsHandshake(port, {
      ciphers: 'TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256',
    });
    expect(chacha).toMatchObject({ ok: true, cipher: 'TLS_CHACHA20_POLY1305_SHA256' });
  });

  it('offers only the configured cipher suites to TLS 1.2 clients', async () => {
    const { port } = await start({ serving: { cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'] } });
    const wrong = await tlsHandshake(port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES256-GCM-SHA384' });
    expect(wrong.ok).toBe(false);
    const right = await tlsHandshake(port, {
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256',
    });
    expect(right.ok && right.cipher).toBe('ECDHE-RSA-AES128-GCM-SHA256');
  });
});

describe('endpoints', () => {
  it('serves health endpoints on the always-allow list and forbids the rest with a Status', async () => {
    const health = new HealthChecks();
    const { port } = await start({
      health,
      alwaysAllowPaths: ['/healthz', '/healthz/*', '/readyz', '/livez'],
    });
    expect(await httpsGet(port, '/healthz')).toMatchObject({ status: 200, body: 'ok' });
    expect(await httpsGet(port, '/healthz/ping')).toMatchObject({ status: 200, body: 'ok' });
    expect((await httpsGet(port, '/readyz/ping')).status).toBe(403);
    expect((await httpsGet(port, '/livez?verbose')).body).toBe('[+]ping ok\nlivez check passed\n');
    expect((await httpsGet(port, '/readyz')).status).toBe(200);
    for (const path of ['/metrics', '/configz', '/healthz/../metrics', '/debug/pprof/heap', '/nothing']) {
      const res = await httpsGet(port, path);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('application/json');
      const status = JSON.parse(res.body);
      expect(status).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
      });
      expect(status.message).toMatch(/^forbidden: User "system:anonymous" cannot get path "\//);
    }
  });

  it('only /healthz is allowed by default', async () => {
    const { port } = await start();
    expect((await httpsGet(port, '/healthz')).status).toBe(200);
    expect((await httpsGet(port, '/readyz')).status).toBe(403);
  });

  it('reports failing checks in Kubernetes format', async () => {
    const health = new HealthChecks().add({
      name: 'informer-sync',
      check: () => {
        throw new Error('not synced');
      },
    });
    health.add({ name: 'leader', check: async () => undefined }, ['healthz']);
    const { port } = await start({ health, alwaysAllowPaths: ['/healthz*', '/readyz'] });
    const res = await httpsGet(port, '/healthz?verbose');
    expect(res.status).toBe(500);
    expect(res.body).toBe(
      '[+]ping ok\n[-]informer-sync failed: reason withheld\n[+]leader ok\nhealthz check failed\n',
    );
    expect((await httpsGet(port, '/healthz?exclude=informer-sync&verbose')).body).toBe(
      '[+]ping ok\n[+]informer-sync excluded: ok\n[+]leader ok\nhealthz check passed\n',
    );
    expect(await httpsGet(port, '/healthz/informer-sync')).toMatchObject({
      status: 500,
      body: 'internal server error: not synced\n',
    });
    expect((await httpsGet(port, '/healthz/nope')).status).toBe(404);
    expect(health.names('readyz')).toEqual(['ping', 'informer-sync']);
  });

  it('serves /metrics, /configz and /version to authorized users', async () => {
    const metrics = new Registry();
    new Counter({ name: 'orch_test_total', help: 'A test counter.', registers: [metrics] }).inc(3);
    const seen: string[] = [];
    const { port } = await start({
      metrics,
      configz: () => ({ componentconfig: { leaderElection: { leaderElect: true } } }),
      authenticate: () => ({ name: 'admin', groups: ['system:masters'] }),
      authorize: (user, path, verb) => {
        seen.push(`${user.name} ${verb} ${path}`);
        return { allowed: user.name === 'admin' };
      },
    });
    const m = await httpsGet(port, '/metrics');
    expect(m.status).toBe(200);
    expect(m.headers['content-type']).toContain('text/plain');
    expect(m.body).toContain('# TYPE orch_test_total counter\norch_test_total 3');
    expect(JSON.parse((await httpsGet(port, '/configz')).body)).toEqual({
      componentconfig: { leaderElection: { leaderElect: true } },
    });
    expect(JSON.parse((await httpsGet(port, '/version')).body)).toMatchObject({
      major: '1',
      minor: '29',
      gitVersion: 'v1.29.0',
    });
    expect((await httpsGet(port, '/debug/pprof/profile')).status).toBe(404);
    expect(seen).toEqual([
      'admin get /metrics',
      'admin get /configz',
      'admin get /version',
      'admin get /debug/pprof/profile',
    ]);
  });

  it('answers 401 when authentication rejects the request', async () => {
    const { port } = await start({ authenticate: () => null });
    const res = await httpsGet(port, '/healthz');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ reason: 'Unauthorized', code: 401 });
  });

  it('authenticates client certificates signed by --client-ca-file as their common name and groups', async () => {
    const client = generateSelfSignedCertificate({
      commonName: 'jane',
      organizations: ['devs'],
      usage: 'client',
    });
    const caFile = join(dir, 'client-ca.crt');
    writeFileSync(caFile, client.cert);
    const users: string[] = [];
    const { port } = await start({
      serving: { clientCAFile: caFile },
      authorize: (user) => {
        users.push(`${user.name}:${user.groups.join(',')}`);
        return { allowed: true };
      },
    });
    await httpsGet(port, '/configz', { cert: client.cert, key: client.key });
    await httpsGet(port, '/configz');
    expect(users).toEqual(['jane:devs,system:authenticated', 'system:anonymous:system:unauthenticated']);
  });

  it('serves a CPU profile when profiling is on', async () => {
    const { port } = await start({ profiling: true, authorize: () => ({ allowed: true }) });
    const res = await httpsGet(port, '/debug/pprof/profile?seconds=0.2');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain('profile.cpuprofile');
    const profile = JSON.parse(res.body);
    expect(Array.isArray(profile.nodes)).toBe(true);
    expect(profile.endTime).toBeGreaterThan(profile.startTime);
    expect((await httpsGet(port, '/debug/pprof/profile?seconds=abc')).status).toBe(400);
    expect((await httpsGet(port, '/debug/pprof/')).status).toBe(200);
  });
});
