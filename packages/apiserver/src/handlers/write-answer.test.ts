import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { writeAnswer } from './write-answer';

/** Parts of varied sizes whose bytes all differ from their neighbours', so a misplaced byte shows. */
function partsOf(sizes: readonly number[]): Buffer[] {
  let n = 0;
  return sizes.map((size) => {
    const part = Buffer.allocUnsafe(size);
    for (let i = 0; i < size; i++) part[i] = n++ % 251;
    return part;
  });
}

describe('writeAnswer', () => {
  let server: Server;
  let parts: Buffer[] = [];
  let compression = false;

  beforeAll(async () => {
    server = createServer((_req, res) =>
      writeAnswer(
        res,
        { code: 200, contentType: 'application/octet-stream', warnings: [] },
        parts,
        compression,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** GETs the answer, reading it slowly when `slow` so that the server waits on the connection. */
  const get = (slow: boolean, gzip = false) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      const req = request(
        { port, host: '127.0.0.1', headers: gzip ? { 'Accept-Encoding': 'gzip' } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => {
            chunks.push(c);
            if (slow) {
              res.pause();
              setTimeout(() => res.resume(), 1);
            }
          });
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });

  test.each([
    ['many small parts over several chunks', Array.from({ length: 3000 }, (_, i) => 700 + (i % 97))],
    [
      'a part larger than a chunk among small ones',
      [10, 300_000, 5, ...Array.from({ length: 800 }, () => 999), 700_000, 3],
    ],
    ['parts that fill a chunk exactly', [128 * 1024, 128 * 1024, 128 * 1024, 1]],
  ])('%s arrive whole and in order, with their length', async (_name, sizes) => {
    parts = partsOf(sizes);
    compression = false;
    const expected = Buffer.concat(parts);
    for (const slow of [false, true]) {
      const { headers, body } = await get(slow);
      expect(headers['content-length']).toBe(String(expected.length));
      expect(body.equals(expected)).toBe(true);
    }
  });

  test('a large answer to a client that accepts gzip is gzipped, and unzips to the parts', async () => {
    parts = partsOf(Array.from({ length: 2000 }, (_, i) => 500 + (i % 13)));
    compression = true;
    const { headers, body } = await get(true, true);
    expect(headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(body).equals(Buffer.concat(parts))).toBe(true);
  });

  test('without the gate the same answer is not compressed', async () => {
    parts = partsOf(Array.from({ length: 2000 }, () => 500));
    compression = false;
    const { headers, body } = await get(false, true);
    expect(headers['content-encoding']).toBeUndefined();
    expect(body.equals(Buffer.concat(parts))).toBe(true);
  });
});
