import https from 'node:https';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';

/** How long a watch of ConfigMaps stays open, in ms, and the events it carried. */
function watchLasts(s: TestAPIServer, query = ''): Promise<{ ms: number; body: string }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    https
      .get(`${s.url}/api/v1/namespaces/default/configmaps?watch=1${query}`, { ca: s.ca }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ ms: Date.now() - started, body }));
      })
      .on('error', reject);
  });
}

describe('--min-request-timeout', () => {
  let s: TestAPIServer;
  beforeAll(async () => {
    s = await startTestAPIServer({ minRequestTimeoutSeconds: 1 });
  });
  afterAll(async () => {
    await s.close();
  });

  test('a watch without timeoutSeconds ends after between the minimum and twice the minimum', async () => {
    const lasts = await Promise.all([1, 2, 3].map(() => watchLasts(s)));
    for (const { ms } of lasts) {
      expect(ms).toBeGreaterThanOrEqual(950);
      expect(ms).toBeLessThan(2000 + 1000);
    }
  });

  test('timeoutSeconds given by the client wins', async () => {
    const { ms } = await watchLasts(s, '&timeoutSeconds=3');
    expect(ms).toBeGreaterThanOrEqual(2950);
  });
});
