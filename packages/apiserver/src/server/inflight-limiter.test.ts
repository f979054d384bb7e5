import https from 'node:https';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';

describe('max-in-flight limits and the request timeout', () => {
  let s: TestAPIServer;
  const req = (path: string, options: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(s.url + path, { ca: s.ca, ...options });
  const cms = '/api/v1/namespaces/default/configmaps';

  beforeAll(async () => {
    s = await startTestAPIServer({
      admissionPlugins: [],
      maxRequestsInflight: 1,
      maxMutatingRequestsInflight: 1,
      requestTimeoutMs: 800,
    });
  });
  afterAll(() => s.close());

  it('answers a read past --max-requests-inflight with 429 and Retry-After, and a slow one with 504', async () => {
    // a list waiting for a revision the store has not reached outlives the request timeout
    const rv = Number((await req(cms)).json.metadata.resourceVersion) + 1000;
    const started = Date.now();
    const slow = req(`${cms}?resourceVersion=${rv}`);
    await new Promise((r) => setTimeout(r, 150));
    const rejected = await req(cms);
    expect(rejected.status).toBe(429);
    expect(rejected.headers['retry-after']).toBe('1');
    expect(rejected.json).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'TooManyRequests',
      code: 429,
      details: { retryAfterSeconds: 1 },
    });

    const timedOut = await slow;
    expect(Date.now() - started).toBeLessThan(2500);
    expect(timedOut.status).toBe(504);
    expect(timedOut.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504 });
    expect(timedOut.json.message).toContain('request did not complete within requested timeout');

    // the slot is free again once the slow request is answered
    expect((await req(cms)).status).toBe(200);
  });

  it('answers a write past --max-mutating-requests-inflight with 429 while reads go on', async () => {
    const body = Buffer.from(JSON.stringify({ metadata: { name: 'held' }, data: { a: 'b' } }));
    // a create whose body is still arriving holds the only mutating slot
    const held = new Promise<number>((resolve, reject) => {
      const r = https.request(
        `${s.url}${cms}`,
        {
          method: 'POST',
          ca: s.ca,
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      r.on('error', reject);
      r.write(body.subarray(0, 10));
      setTimeout(() => r.end(body.subarray(10)), 500);
    });
    await new Promise((r) => setTimeout(r, 150));
    const rejected = await req(cms, { method: 'POST', body: { metadata: { name: 'other' } } });
    expect(rejected.status).toBe(429);
    expect(rejected.headers['retry-after']).toBe('1');
    expect(rejected.json).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    expect((await req(cms)).status).toBe(200);
    expect(await held).toBe(201);
    expect((await req(cms, { method: 'POST', body: { metadata: { name: 'other' } } })).status).toBe(201);
  });

  it('does not count watches against the limit', async () => {
    const watch = https.get(`${s.url}${cms}?watch=true&timeoutSeconds=2`, { ca: s.ca });
    const opened = new Promise<void>((resolve) => watch.on('response', () => resolve()));
    await opened;
    expect((await req(cms)).status).toBe(200);
    watch.destroy();
  });
});
