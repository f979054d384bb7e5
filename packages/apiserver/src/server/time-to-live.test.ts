import https from 'node:https';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';

/** Events live --event-ttl after their last write; other kinds are kept. */
describe('--event-ttl', () => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({ timeToLive: { 'event-ttl': 2 } });
  });
  afterAll(async () => {
    await s.close();
  });

  function request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${s.url}${path}`,
        {
          method,
          ca: s.ca,
          headers: {
            'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
            Accept: 'application/json',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }),
          );
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  const event = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
    reason: 'Tested',
    message: 'an event',
    type: 'Normal',
  });

  test('an event is deleted once --event-ttl has passed since its last write; a watch sees it go', async () => {
    const list = await request('GET', '/api/v1/namespaces/default/events');
    const lines: string[] = [];
    const watch = https.get(
      `${s.url}/api/v1/namespaces/default/events?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
      { ca: s.ca },
      (res) => res.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean))),
    );
    try {
      const started = Date.now();
      expect((await request('POST', '/api/v1/namespaces/default/events', event('short'))).status).toBe(201);
      expect((await request('POST', '/api/v1/namespaces/default/events', event('renewed'))).status).toBe(201);
      expect(
        (await request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' } }))
          .status,
      ).toBe(201);
      // an update 1.5 s on starts the time of 'renewed' again
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const patched = await request('PATCH', '/api/v1/namespaces/default/events/renewed', { count: 2 });
      expect(patched.status).toBe(200);
      let gone = false;
      while (!gone && Date.now() - started < 15_000) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        gone = (await request('GET', '/api/v1/namespaces/default/events/short')).status === 404;
      }
      expect(gone).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      // 'renewed' was written later: it is still there when 'short' has gone
      expect((await request('GET', '/api/v1/namespaces/default/events/renewed')).status).toBe(200);
      expect((await request('GET', '/api/v1/namespaces/default/configmaps/kept')).status).toBe(200);
      const deleted = () =>
        lines
          .map((l) => JSON.parse(l))
          .filter((e) => e.type === 'DELETED')
          .map((e) => e.object.metadata.name);
      while (!deleted().includes('short') && Date.now() - started < 15_000)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(deleted()).toEqual(['short']);
    } finally {
      watch.destroy();
    }
  });
});
