import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import https from 'node:https';
import { startTestAPIServer, type TestAPIServer } from '../../testing/test-apiserver';
import { httpsRequest } from '../../testing/https-request';
import { isProxyableIP, splitSchemeNamePort } from './proxy';

describe('splitSchemeNamePort', () => {
  it('reads name, name:port and scheme:name:port', () => {
    expect(splitSchemeNamePort('web')).toEqual({ scheme: '', name: 'web', port: '' });
    expect(splitSchemeNamePort('web:8080')).toEqual({ scheme: '', name: 'web', port: '8080' });
    expect(splitSchemeNamePort('web:http')).toEqual({ scheme: '', name: 'web', port: 'http' });
    expect(splitSchemeNamePort('https:web:443')).toEqual({ scheme: 'https', name: 'web', port: '443' });
    expect(splitSchemeNamePort('http:web:')).toEqual({ scheme: 'http', name: 'web', port: '' });
  });

  it('refuses other schemes, an empty name and more parts', () => {
    expect(splitSchemeNamePort('ftp:web:21')).toBeUndefined();
    expect(splitSchemeNamePort(':8080')).toBeUndefined();
    expect(splitSchemeNamePort('a:b:c:d')).toBeUndefined();
  });
});

describe('isProxyableIP', () => {
  it('takes unicast addresses (loopback too) and refuses none, unspecified, multicast, link-local', () => {
    for (const ip of ['10.244.0.5', '127.0.0.1', '172.18.0.2', '2001:db8::1', '::1'])
      expect(isProxyableIP(ip)).toBe(true);
    for (const ip of [
      undefined,
      '',
      'web',
      '0.0.0.0',
      '224.0.0.1',
      '169.254.169.254',
      '::',
      'fe80::1',
      'ff02::1',
    ])
      expect(isProxyableIP(ip)).toBe(false);
  });
});

/**
 * An address of this host other than loopback: Endpoints may not hold loopback addresses, so the
 * backend of a service is reached there (the suite of services is skipped on a host without one).
 */
const hostAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
const withHostAddress = hostAddress ? describe : describe.skip;

describe('the proxy subresources against a backend on this host', () => {
  let s: TestAPIServer;
  let backend: http.Server;
  let port: number;
  let closedPort: number;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const ns = '/api/v1/namespaces/default';
  const create = async (path: string, body: unknown) => {
    const res = await req(path, { method: 'POST', body });
    expect([res.status, res.status === 201 ? '' : res.json?.message]).toEqual([201, '']);
  };
  const podWithIP = async (name: string, ip: string | undefined, containerPort?: number) => {
    await create(`${ns}/pods`, {
      metadata: { name },
      spec: {
        containers: [
          { name: 'c', image: 'busybox', ...(containerPort ? { ports: [{ containerPort }] } : {}) },
        ],
      },
    });
    if (!ip) return;
    const patched = await req(`${ns}/pods/${name}/status`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { status: { phase: 'Running', podIP: ip, podIPs: [{ ip }] } },
    });
    expect(patched.status).toBe(200);
  };

  const services = async (ip: string) => {
    await create(`${ns}/services`, {
      metadata: { name: 'web' },
      spec: {
        ports: [
          { name: 'http', port: 80, targetPort: port },
          { name: 'other', port: 81 },
        ],
      },
    });
    await create(`${ns}/endpoints`, {
      metadata: { name: 'web' },
      subsets: [
        {
          addresses: [{ ip, targetRef: { kind: 'Pod', namespace: 'default', name: 'web' } }],
          ports: [{ name: 'http', port }],
        },
      ],
    });
    await create(`${ns}/services`, { metadata: { name: 'single' }, spec: { ports: [{ port: 8080 }] } });
    await create(`${ns}/endpoints`, {
      metadata: { name: 'single' },
      subsets: [
        {
          addresses: [{ ip, targetRef: { kind: 'Pod', namespace: 'default', name: 'web' } }],
          ports: [{ port }],
        },
      ],
    });
    await create(`${ns}/services`, { metadata: { name: 'empty' }, spec: { ports: [{ port: 80 }] } });
    await create(`${ns}/endpoints`, { metadata: { name: 'empty' } });
    await create(`${ns}/services`, { metadata: { name: 'noref' }, spec: { ports: [{ port: 80 }] } });
    await create(`${ns}/endpoints`, {
      metadata: { name: 'noref' },
      subsets: [{ addresses: [{ ip }], ports: [{ port }] }],
    });
    await create(`${ns}/services`, { metadata: { name: 'noendpoints' }, spec: { ports: [{ port: 80 }] } });
  };

  beforeAll(async () => {
    // echoes what reached it: method, path and query, body and a few headers
    backend = http.createServer((r, w) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        w.writeHead(r.method === 'POST' ? 201 : 200, {
          'Content-Type': 'application/json',
          'X-Backend': 'yes',
          // a hop-by-hop header by the Connection header's naming it
          Connection: 'X-Hop',
          'X-Hop': '1',
        });
        w.end(
          JSON.stringify({
            method: r.method,
            url: r.url,
            body: Buffer.concat(chunks).toString('utf8'),
            authorization: r.headers.authorization ?? null,
            forwardedFor: r.headers['x-forwarded-for'] ?? null,
            custom: r.headers['x-custom'] ?? null,
          }),
        );
      });
    });
    // an upgrade switches to echoing the bytes back, upper-cased
    backend.on('upgrade', (r: http.IncomingMessage, socket: Duplex) => {
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: shout\r\nX-Path: ${r.url}\r\n\r\n`,
      );
      socket.on('data', (c: Buffer) => socket.write(c.toString().toUpperCase()));
      socket.on('end', () => socket.end());
    });
    await new Promise<void>((resolve) => backend.listen(0, hostAddress ? '0.0.0.0' : '127.0.0.1', resolve));
    port = (backend.address() as AddressInfo).port;
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    s = await startTestAPIServer({ admissionPlugins: [] });
    await podWithIP('web', hostAddress ?? '127.0.0.1', port);
    await podWithIP('noip', undefined, port);
    await podWithIP('noport', '127.0.0.1');
    if (hostAddress) await services(hostAddress);
    await create('/api/v1/nodes', {
      metadata: { name: 'n1' },
      status: {
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: closedPort } },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => backend.close(() => resolve()));
  });

  describe('pods', () => {
    it('reaches the first container port by default, with the path and query', async () => {
      const res = await req(`${ns}/pods/web/proxy/hello/there?x=1&y=2`, {
        headers: { 'X-Custom': 'kept', Authorization: 'Bearer secret' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        method: 'GET',
        url: '/hello/there?x=1&y=2',
        authorization: null,
        custom: 'kept',
        forwardedFor: '127.0.0.1',
      });
      expect(res.headers['x-backend']).toBe('yes');
      expect(res.headers['x-hop']).toBeUndefined();
    });

    it('takes name:port and scheme:name:port, keeps the trailing slash and streams the body', async () => {
      expect((await req(`${ns}/pods/web:${port}/proxy/`)).json).toMatchObject({ url: '/' });
      const posted = await req(`${ns}/pods/http:web:${port}/proxy/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: 'not json at all',
      });
      expect(posted.status).toBe(201);
      expect(posted.json).toMatchObject({ method: 'POST', url: '/echo', body: 'not json at all' });
      for (const method of ['PUT', 'PATCH', 'DELETE'])
        expect((await req(`${ns}/pods/web/proxy/x`, { method })).json).toMatchObject({ method });
    });

    it('passes an upgrade through and pipes the bytes both ways', async () => {
      const url = new URL(`${s.url}${ns}/pods/web/proxy/ws?x=1`);
      const { res, socket } = await new Promise<{ res: http.IncomingMessage; socket: Duplex }>(
        (resolve, reject) => {
          const r = https.request(url, {
            ca: s.ca,
            headers: { Connection: 'Upgrade', Upgrade: 'shout' },
          });
          r.on('upgrade', (res, socket) => resolve({ res, socket }));
          r.on('response', () => reject(new Error('no upgrade')));
          r.on('error', reject);
          r.end();
        },
      );
      expect(res.statusCode).toBe(101);
      expect(res.headers['x-path']).toBe('/ws?x=1');
      const echoed = new Promise<string>((resolve) =>
        socket.once('data', (c: Buffer) => resolve(c.toString())),
      );
      socket.write('hello');
      expect(await echoed).toBe('HELLO');
      socket.end();
      await new Promise((resolve) => socket.once('close', resolve));
    });

    it('redirects the bare proxy path to the one with a slash', async () => {
      const res = await req(`${ns}/pods/web/proxy?a=b`);
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe(`${ns}/pods/web/proxy/?a=b`);
    });

    it('answers Kubernetes errors: bad request, no IP, no pod, nothing listening', async () => {
      const bad = await req(`${ns}/pods/a:b:c:d/proxy/`);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ kind: 'Status', message: 'invalid pod request "a:b:c:d"' });
      expect((await req(`${ns}/pods/ftp:web:21/proxy/`)).status).toBe(400);
      const noIP = await req(`${ns}/pods/noip/proxy/`);
      expect(noIP.status).toBe(400);
      expect(noIP.json).toMatchObject({ reason: 'BadRequest', message: 'address not allowed' });
      const missing = await req(`${ns}/pods/nope/proxy/`);
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found' });
      const refused = await req(`${ns}/pods/web:${closedPort}/proxy/`);
      expect(refused.status).toBe(503);
      expect(refused.json).toMatchObject({
        reason: 'ServiceUnavailable',
        message: `error trying to reach service: dial tcp ${hostAddress ?? '127.0.0.1'}:${closedPort}: connect: connection refused`,
      });
      // no port asked for and none declared: the scheme's (http: 80)
      expect((await req(`${ns}/pods/noport/proxy/`)).status).toBe(503);
    });
  });

  withHostAddress('services', () => {
    it('reaches an endpoint of the service port by name and by number', async () => {
      expect((await req(`${ns}/services/web:http/proxy/a?b=c`)).json).toMatchObject({ url: '/a?b=c' });
      expect((await req(`${ns}/services/web:80/proxy/a`)).json).toMatchObject({ url: '/a' });
      expect((await req(`${ns}/services/http:web:80/proxy/a`)).json).toMatchObject({ url: '/a' });
      // an unnamed port: the service name alone
      expect((await req(`${ns}/services/single/proxy/s`)).json).toMatchObject({ url: '/s' });
      expect((await req(`${ns}/services/single:8080/proxy/s`)).json).toMatchObject({ url: '/s' });
    });

    it('is 503 without a service port, without an endpoint of the port, without endpoints', async () => {
      const noPort = await req(`${ns}/services/web:8080/proxy/`);
      expect(noPort.status).toBe(503);
      expect(noPort.json).toMatchObject({
        reason: 'ServiceUnavailable',
        message: 'no service port 8080 found for service "web"',
      });
      const other = await req(`${ns}/services/web:other/proxy/`);
      expect(other.status).toBe(503);
      expect(other.json.message).toBe('no endpoints available for service "web:other"');
      const empty = await req(`${ns}/services/empty/proxy/`);
      expect(empty.status).toBe(503);
      expect(empty.json).toMatchObject({
        kind: 'Status',
        code: 503,
        reason: 'ServiceUnavailable',
        message: 'no endpoints available for service "empty"',
      });
      // an address that is no pod of the namespace is not proxied to
      expect((await req(`${ns}/services/noref/proxy/`)).status).toBe(503);
    });

    it('is 404 for a missing service or Endpoints', async () => {
      expect((await req(`${ns}/services/nope:80/proxy/`)).json).toMatchObject({
        code: 404,
        message: 'services "nope" not found',
      });
      expect((await req(`${ns}/services/noendpoints/proxy/`)).json).toMatchObject({
        code: 404,
        message: 'endpoints "noendpoints" not found',
      });
    });
  });

  describe('nodes', () => {
    it('reaches another port of the node address over http', async () => {
      const res = await req(`/api/v1/nodes/n1:${port}/proxy/metrics?q=1`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ url: '/metrics?q=1' });
    });

    it('is 503 when the node agent does not answer, 404 for a missing node, 400 for a bad id', async () => {
      const res = await req('/api/v1/nodes/n1/proxy/pods');
      expect(res.status).toBe(503);
      expect(res.json.message).toBe(
        `error trying to reach service: dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
      );
      expect((await req('/api/v1/nodes/nope/proxy/pods')).json).toMatchObject({
        code: 404,
        message: 'nodes "nope" not found',
      });
      expect((await req('/api/v1/nodes/a:b:c:d/proxy/pods')).json).toMatchObject({
        code: 400,
        message: 'invalid node request "a:b:c:d"',
      });
    });
  });
});
