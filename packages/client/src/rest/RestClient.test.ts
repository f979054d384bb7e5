import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import { generateTestPki, type TestPki } from '../testing/certs';
import { FakeApiServer, type RecordedRequest } from '../testing/FakeApiServer';
import type { KubeList, KubeObject } from '../types';
import { TypedClient } from '../typed/TypedClient';
import { RestClient } from './RestClient';
import type { RestConfig } from './RestConfig';
import {
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isMethodNotSupported,
  isNotFound,
  isResourceExpired,
  isServerTimeout,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
  StatusError,
} from './StatusError';

const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };

let pki: TestPki;
let server: FakeApiServer;
const clients: RestClient[] = [];

function client(overrides: Partial<RestConfig> = {}, maxRetries?: number): RestClient {
  const c = new RestClient(
    { server: server.url, ca: Buffer.from(pki.caCert), qps: -1, token: 'secret', ...overrides },
    maxRetries === undefined ? {} : { maxRetries },
  );
  clients.push(c);
  return c;
}

function reply(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): true {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
    ...headers,
  });
  res.end(text);
  return true;
}

async function errorOf(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) {
      return err;
    }
    throw err;
  }
  throw new Error('expected a StatusError');
}

beforeAll(async () => {
  pki = generateTestPki();
  server = new FakeApiServer({ pki, token: 'secret', gzip: true });
  await server.start();
});

afterEach(() => {
  server.hook = undefined;
  clients.splice(0).forEach((c) => c.close());
});

afterAll(async () => {
  await server.stop();
});

describe('Request paths', () => {
  const c = new RestClient({ server: 'https://example.invalid:6443/prefix/' });
  afterAll(() => c.close());

  it('builds core, group, namespaced and subresource paths with query parameters', () => {
    expect(c.get().resource('nodes').url()).toBe('/api/v1/nodes');
    expect(c.get().namespace('ns').resource('pods').name('p').subresource('status').url()).toBe(
      '/api/v1/namespaces/ns/pods/p/status',
    );
    expect(
      c
        .get()
        .group('apps')
        .version('v1')
        .namespace('')
        .resource('deployments')
        .params({ labelSelector: 'a=b,c!=d', limit: 5, continue: 'x y', allowWatchBookmarks: true })
        .url(),
    ).toBe(
      '/apis/apps/v1/deployments?labelSelector=a%3Db%2Cc%21%3Dd&limit=5&continue=x+y&allowWatchBookmarks=true',
    );
    expect(
      c
        .delete()
        .group('batch')
        .version('v1')
        .namespace('n')
        .resource('jobs')
        .name('j')
        .params({ propagationPolicy: 'Foreground', gracePeriodSeconds: 0, dryRun: 'All' })
        .url(),
    ).toBe('/apis/batch/v1/namespaces/n/jobs/j?propagationPolicy=Foreground&gracePeriodSeconds=0&dryRun=All');
  });
});

describe('RestClient over HTTPS', () => {
  it('verifies the server against the CA, sends token, user agent, Accept and gzip, decodes gzip', async () => {
    server.upsert({ metadata: { namespace: 'a', name: 'one' } });
    const c = client({ userAgent: 'orch-test/v1.2.3 (linux/amd64) orch/abc' });
    const list = await new TypedClient(c, configmaps).list({ namespace: 'a' });
    expect(list.items.map((o) => o.metadata?.name)).toEqual(['one']);
    const req = server.requests[server.requests.length - 1]!;
    expect(req.url.pathname).toBe('/api/v1/namespaces/a/configmaps');
    expect(req.headers.authorization).toBe('Bearer secret');
    expect(req.headers['user-agent']).toBe('orch-test/v1.2.3 (linux/amd64) orch/abc');
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['accept-encoding']).toBe('gzip');
  });

  it('sends the token read from a token file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orch-token-'));
    try {
      fs.writeFileSync(path.join(dir, 'token'), 'secret\n');
      const c = client({ token: 'stale', tokenFile: path.join(dir, 'token') });
      await c.get().resource('configmaps').do();
      expect(server.requests[server.requests.length - 1]!.headers.authorization).toBe('Bearer secret');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a server whose certificate is not signed by the configured CA unless insecure', async () => {
    await expect(
      client({ ca: Buffer.from(pki.otherCaCert) })
        .get()
        .resource('configmaps')
        .do(),
    ).rejects.toThrow(/certificate/i);
    await expect(
      client({ ca: undefined, insecure: true }).get().resource('configmaps').do(),
    ).resolves.toBeTruthy();
  });

  it('checks the certificate against tlsServerName when given', async () => {
    await expect(
      client({ tlsServerName: 'api.orch.test' }).get().resource('configmaps').do(),
    ).resolves.toBeTruthy();
    await expect(
      client({ tlsServerName: 'wrong.example' }).get().resource('configmaps').do(),
    ).rejects.toThrow(/altnames|does not match|certificate/i);
  });

  it('authenticates with a client certificate', async () => {
    const strict = new FakeApiServer({ pki, requireClientCert: true });
    await strict.start();
    try {
      const withCert = new RestClient({
        server: strict.url,
        ca: Buffer.from(pki.caCert),
        cert: Buffer.from(pki.clientCert),
        key: Buffer.from(pki.clientKey),
      });
      clients.push(withCert);
      await withCert.get().resource('configmaps').do();
      expect(strict.requests[0]!.clientCertCN).toBe('test-user');
      const without = new RestClient({ server: strict.url, ca: Buffer.from(pki.caCert) });
      clients.push(without);
      const err = await errorOf(without.get().resource('configmaps').do());
      expect(isUnauthorized(err)).toBe(true);
      expect(err.code).toBe(401);
    } finally {
      clients.splice(0).forEach((c) => c.close());
      await strict.stop();
    }
  });

  it('sends basic auth', async () => {
    let seen: RecordedRequest | undefined;
    const s2 = new FakeApiServer({ pki });
    await s2.start();
    try {
      s2.hook = (r, res) => {
        seen = r;
        return reply(res, 200, {});
      };
      const c2 = new RestClient({
        server: s2.url,
        ca: Buffer.from(pki.caCert),
        username: 'u',
        password: 'p:w',
      });
      clients.push(c2);
      await c2.get().resource('configmaps').do();
      expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from('u:p:w').toString('base64')}`);
    } finally {
      clients.splice(0).forEach((x) => x.close());
      await s2.stop();
    }
  });

  it('retries 429 and 5xx answers carrying Retry-After, honouring the delay', async () => {
    let n = 0;
    server.hook = (_r, res) => {
      n++;
      if (n === 1) {
        return reply(res, 429, 'slow down', { 'Retry-After': '1' });
      }
      if (n === 2) {
        return reply(res, 503, 'busy', { 'Retry-After': '0' });
      }
      return reply(res, 200, { ok: true });
    };
    const start = Date.now();
    await expect(client().get().resource('configmaps').do()).resolves.toEqual({ ok: true });
    expect(n).toBe(3);
    expect(Date.now() - start).toBeGreaterThanOrEqual(950);
  });

  it('gives up after the bounded number of retries and does not retry without Retry-After', async () => {
    let n = 0;
    server.hook = (_r, res) => {
      n++;
      return reply(res, 429, 'slow down', { 'Retry-After': '0' });
    };
    const err = await errorOf(client({}, 3).get().resource('configmaps').do());
    expect(n).toBe(4);
    expect(isTooManyRequests(err)).toBe(true);
    expect(err.status.details?.retryAfterSeconds).toBe(0);

    n = 0;
    server.hook = (_r, res) => {
      n++;
      return reply(res, 500, 'boom');
    };
    const err500 = await errorOf(client().get().resource('configmaps').do());
    expect(n).toBe(1);
    expect(err500.code).toBe(500);
    expect(err500.reason).toBe('InternalError');
  });

  it('maps Status bodies and bare HTTP codes to typed errors', async () => {
    const c = client();
    const cms = new TypedClient<KubeObject>(c, configmaps);
    const notFound = await errorOf(cms.get('missing', { namespace: 'a' }));
    expect(isNotFound(notFound)).toBe(true);
    expect(notFound.message).toBe('configmaps "missing" not found');
    await cms.create({ metadata: { name: 'dup', namespace: 'a' } });
    const exists = await errorOf(cms.create({ metadata: { name: 'dup', namespace: 'a' } }));
    expect(isAlreadyExists(exists)).toBe(true);
    expect(isConflict(exists)).toBe(false);

    const invalid = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: 'ConfigMap "x" is invalid',
      details: { name: 'x', kind: 'ConfigMap', causes: [{ type: 'FieldValueRequired', field: 'data' }] },
    };
    server.hook = (_r, res) => reply(res, 422, invalid);
    const inv = await errorOf(c.get().resource('configmaps').do());
    expect(isInvalid(inv)).toBe(true);
    expect(inv.status.details?.causes).toEqual([{ type: 'FieldValueRequired', field: 'data' }]);

    const bare: [number, (e: unknown) => boolean, string][] = [
      [400, isBadRequest, 'BadRequest'],
      [403, isForbidden, 'Forbidden'],
      [404, isNotFound, 'NotFound'],
      [405, isMethodNotSupported, 'MethodNotAllowed'],
      [409, isConflict, 'Conflict'],
      [410, isGone, 'Gone'],
      [504, isTimeout, 'Timeout'],
    ];
    for (const [code, pred, reason] of bare) {
      server.hook = (_r, res) => reply(res, code, 'plain text');
      const err = await errorOf(c.get().resource('configmaps').do());
      expect([err.code, err.reason, pred(err)]).toEqual([code, reason, true]);
      expect(err.message).toContain('plain text');
    }
    server.hook = (_r, res) =>
      reply(res, 410, { kind: 'Status', code: 410, reason: 'Expired', message: 'old' });
    const expired = await errorOf(c.get().resource('configmaps').do());
    expect(isResourceExpired(expired) && !isGone(expired)).toBe(true);
    server.hook = (_r, res) =>
      reply(res, 500, { kind: 'Status', code: 500, reason: 'ServerTimeout', message: 't' });
    expect(isServerTimeout(await errorOf(c.get().resource('configmaps').do()))).toBe(true);
    server.hook = (_r, res) => reply(res, 418, { kind: 'Status', code: 418, message: 'teapot' });
    const unknown = await errorOf(c.get().resource('configmaps').do());
    expect([unknown.code, unknown.reason, isNotFound(unknown)]).toEqual([418, '', false]);
  });

  it('rate limits: 20 requests at qps=10 burst=5 take about 1.5 s', async () => {
    server.hook = (_r, res) => reply(res, 200, {});
    const c = client({ qps: 10, burst: 5 });
    const start = Date.now();
    await Promise.all(Array.from({ length: 20 }, () => c.get().resource('configmaps').do()));
    const elapsed = Date.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(1300);
    expect(elapsed).toBeLessThan(3000);
  });

  it('keeps the connections of a burst open for the next one (no new TLS handshakes)', async () => {
    const patient = new FakeApiServer({ pki, token: 'secret', keepAliveTimeoutMs: 60_000 });
    await patient.start();
    const sockets = new Set<unknown>();
    // each answer waits, so that every request of a burst has a connection of its own
    patient.hook = (_r, res) => {
      sockets.add(res.socket);
      setTimeout(() => reply(res, 200, {}), 50);
      return true;
    };
    const c = client({ server: patient.url });
    const burst = () => Promise.all(Array.from({ length: 40 }, () => c.get().resource('configmaps').do()));
    try {
      await burst();
      const opened = sockets.size;
      expect(opened).toBeGreaterThan(25);
      await burst();
      expect(sockets.size).toBe(opened);
    } finally {
      c.close();
      await patient.stop();
    }
  });

  it('creates and deletes through the resource client', async () => {
    const cms = new TypedClient<KubeObject>(client(), configmaps);
    const created = await cms.create({ metadata: { name: 'made', namespace: 'b' }, data: { k: 'v' } });
    expect(created.metadata?.resourceVersion).toBeDefined();
    const list: KubeList = await cms.list({ namespace: 'b' });
    expect(list.items).toHaveLength(1);
    await cms.delete('made', { namespace: 'b', propagationPolicy: 'Background' });
    const last = server.requests[server.requests.length - 1]!;
    expect([last.method, last.url.search]).toEqual(['DELETE', '?propagationPolicy=Background']);
    expect((await cms.list({ namespace: 'b' })).items).toHaveLength(0);
  });
});
