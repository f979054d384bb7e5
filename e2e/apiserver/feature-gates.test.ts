import { httpsRequest, startAPIServerProcess, type APIServerProcess } from '@orch/apiserver';

/** orch-apiserver honours --feature-gates=APIResponseCompression=false: no answer is gzipped. */
describe('orch-apiserver --feature-gates=APIResponseCompression=false', () => {
  let api: APIServerProcess;
  beforeAll(async () => {
    api = await startAPIServerProcess({ args: ['--feature-gates=APIResponseCompression=false'] });
  });
  afterAll(async () => {
    await api?.destroy();
  });

  it('answers a large list in plain bytes to a client that accepts gzip', async () => {
    const admin = { ca: api.pki.ca, cert: api.pki.admin.cert, key: api.pki.admin.key };
    const path = `${api.url}/api/v1/namespaces/default/configmaps`;
    for (let i = 0; i < 40; i++) {
      const body = { metadata: { name: `big-${i}` }, data: { blob: 'x'.repeat(4096) } };
      expect((await httpsRequest(path, { ...admin, method: 'POST', body })).status).toBe(201);
    }
    const list = await httpsRequest(path, { ...admin, headers: { 'Accept-Encoding': 'gzip' } });
    expect(list.body.length).toBeGreaterThan(128 * 1024);
    expect(list.headers['content-encoding']).toBeUndefined();
    expect(list.json.items).toHaveLength(40);
  });
});
