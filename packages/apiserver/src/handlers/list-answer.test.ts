import { randomBytes } from 'node:crypto';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { allKinds, ProtobufCodec } from '@orch/api';
import { startTestAPIServer, type TestAPIServer } from '../testing/test-apiserver';
import { httpsRequest } from '../testing/https-request';
import { encodeJSONList } from './encode-list';

const codec = new ProtobufCodec(allKinds);
const configmaps = '/api/v1/namespaces/default/configmaps';
const protobuf = 'application/vnd.kubernetes.protobuf';

describe('a large list answer, written in chunks', () => {
  let s: TestAPIServer;
  const get = (accept: string, encoding?: string) =>
    httpsRequest(s.url + configmaps, {
      ca: s.ca,
      headers: { Accept: accept, ...(encoding ? { 'Accept-Encoding': encoding } : {}) },
    });

  beforeAll(async () => {
    s = await startTestAPIServer({ admissionPlugins: [] });
    // 300 objects of about 3 KB of random text: an answer of several chunks, gzipped or not
    const value = () => randomBytes(2250).toString('base64');
    for (let i = 0; i < 300; i += 30)
      await Promise.all(
        Array.from({ length: 30 }, (_, j) =>
          httpsRequest(s.url + configmaps, {
            ca: s.ca,
            method: 'POST',
            body: { metadata: { name: `cm-${String(i + j).padStart(3, '0')}` }, data: { v: value() } },
          }),
        ),
      );
  });
  afterAll(() => s.close());

  it('is the whole JSON list, byte for byte, with its Content-Length', async () => {
    const res = await get('application/json');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(900_000);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    const list = JSON.parse(res.body.toString());
    expect(list.items).toHaveLength(300);
    expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(
      Array.from({ length: 300 }, (_, i) => `cm-${String(i).padStart(3, '0')}`),
    );
    // what one buffer of the same list holds
    expect(res.body.equals(encodeJSONList({ ...list, items: list.items }))).toBe(true);
    // and what the gzipped answer holds once unzipped; compressed as it is written, it is chunked
    const zipped = await get('application/json', 'gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.headers['content-length']).toBeUndefined();
    expect(zipped.headers['transfer-encoding']).toBe('chunked');
    expect(gunzipSync(zipped.body).equals(res.body)).toBe(true);
  });

  it.each([
    ['plain', 'identity'],
    ['gzipped', 'gzip'],
  ])(
    'stops, and the server answers the next request, when the client leaves after the first chunk (%s)',
    async (_, encoding) => {
      const firstChunk = await new Promise<number>((resolve, reject) => {
        const req = https.get(
          s.url + configmaps,
          { ca: s.ca, headers: { Accept: 'application/json', 'Accept-Encoding': encoding } },
          (res) => {
            expect(res.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : undefined);
            res.once('data', (chunk: Buffer) => {
              req.destroy();
              resolve(chunk.length);
            });
          },
        );
        req.on('error', (e: NodeJS.ErrnoException) => e.code !== 'ECONNRESET' && reject(e));
      });
      expect(firstChunk).toBeGreaterThan(0);
      const res = await get('application/json', encoding);
      expect(res.status).toBe(200);
      const body = encoding === 'gzip' ? gunzipSync(res.body) : res.body;
      expect(JSON.parse(body.toString()).items).toHaveLength(300);
    },
  );

  it('is the whole protobuf list, decoding to the JSON list', async () => {
    const res = await get(protobuf);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(protobuf);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    const decoded = codec.decode(res.body) as { items: unknown[] };
    const json = JSON.parse((await get('application/json')).body.toString());
    expect(decoded).toEqual({ apiVersion: 'v1', kind: 'ConfigMapList', ...json });
  });
});
