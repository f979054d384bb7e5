import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import * as zlib from 'node:zlib';
import { RestClient } from '../rest/RestClient';
import { generateTestPki, type TestPki } from '../testing/certs';
import { FakeApiServer } from '../testing/FakeApiServer';
import type { KubeObject, WatchEvent } from '../types';
import { LengthPrefixedFramer, LineFramer } from './Framer';
import { asWatchEvent, WatchStream } from './WatchStream';

const decodeJson = (frame: Buffer): WatchEvent<KubeObject> =>
  asWatchEvent(JSON.parse(frame.toString('utf8')));

function event(type: string, name: string, rv: string): string {
  return (
    JSON.stringify({ type, object: { kind: 'ConfigMap', metadata: { name, resourceVersion: rv } } }) + '\n'
  );
}

describe('framers', () => {
  it('LineFramer joins lines split across chunks, including inside a multi-byte character', () => {
    const f = new LineFramer();
    const text = '{"a":"é"}\n\n{"b":2}\n{"c"';
    const bytes = Buffer.from(text, 'utf8');
    const split = bytes.indexOf(0xc3) + 1; // inside "é"
    expect(f.push(bytes.subarray(0, split))).toEqual([]);
    const frames = f.push(bytes.subarray(split));
    expect(frames.map((b) => b.toString('utf8'))).toEqual(['{"a":"é"}', '{"b":2}']);
    expect(f.push(Buffer.from(':3}')).length).toBe(0);
    expect(f.flush().map((b) => b.toString())).toEqual(['{"c":3}']);
  });

  it('LengthPrefixedFramer reads 4-byte big-endian length prefixes across chunks', () => {
    const f = new LengthPrefixedFramer();
    const frame = (s: string): Buffer => {
      const body = Buffer.from(s);
      const head = Buffer.alloc(4);
      head.writeUInt32BE(body.length);
      return Buffer.concat([head, body]);
    };
    const all = Buffer.concat([frame('hello'), frame(''), frame('world!')]);
    const out: string[] = [];
    for (let i = 0; i < all.length; i += 3) {
      out.push(...f.push(all.subarray(i, i + 3)).map((b) => b.toString()));
    }
    expect(out).toEqual(['hello', '', 'world!']);
    f.push(Buffer.from([0, 0, 0, 9, 1]));
    expect(() => f.flush()).toThrow(/inside a frame/);
  });
});

describe('WatchStream', () => {
  it('yields events from chunks split mid-line, then ends', async () => {
    const source = new PassThrough();
    const w = new WatchStream<KubeObject>(source, new LineFramer(), decodeJson, () => source.destroy());
    const text =
      event('ADDED', 'a', '1') +
      event('MODIFIED', 'a', '2') +
      event('BOOKMARK', '', '3') +
      event('DELETED', 'a', '4');
    for (let i = 0; i < text.length; i += 7) {
      source.write(text.slice(i, i + 7));
    }
    source.end();
    const got: string[] = [];
    for await (const ev of w) {
      got.push(`${ev.type}:${ev.object.metadata?.resourceVersion}`);
    }
    expect(got).toEqual(['ADDED:1', 'MODIFIED:2', 'BOOKMARK:3', 'DELETED:4']);
  });

  it('ends with an error on an undecodable frame and stops cleanly on stop()', async () => {
    const bad = new PassThrough();
    const w = new WatchStream<KubeObject>(bad, new LineFramer(), decodeJson, () => bad.destroy());
    bad.write(event('ADDED', 'a', '1') + '{"type":"NOPE","object":{}}\n');
    const seen: string[] = [];
    await expect(w.forEach((ev) => void seen.push(ev.type))).rejects.toThrow(/invalid watch event/);
    expect(seen).toEqual(['ADDED']);

    const source = new PassThrough();
    let cancelled = false;
    const w2 = new WatchStream<KubeObject>(source, new LineFramer(), decodeJson, () => {
      cancelled = true;
      source.destroy();
    });
    const pending = w2.next();
    w2.stop();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(cancelled).toBe(true);
  });
});

describe('watch over HTTPS', () => {
  let pki: TestPki;
  let server: FakeApiServer;
  let client: RestClient;

  beforeAll(async () => {
    pki = generateTestPki();
    server = new FakeApiServer({ pki });
    await server.start();
    client = new RestClient({ server: server.url, ca: Buffer.from(pki.caCert) });
  });

  afterAll(async () => {
    client.close();
    await server.stop();
  });

  it('decodes a chunked response written in pieces, with gzip, and ERROR events; stop aborts', async () => {
    const text =
      event('ADDED', 'x', '10') +
      JSON.stringify({
        type: 'ERROR',
        object: { kind: 'Status', code: 410, reason: 'Expired', message: 'gone' },
      }) +
      '\n';
    let closed: Promise<void> | undefined;
    server.hook = (r, res: ServerResponse) => {
      expect(r.url.searchParams.get('watch')).toBe('true');
      expect(r.headers['accept-encoding']).toBe('gzip');
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.flushHeaders();
      const gz = zlib.createGzip();
      gz.pipe(res);
      const pieces = [text.slice(0, 15), text.slice(15, 50), text.slice(50)];
      let i = 0;
      const timer = setInterval(() => {
        if (i < pieces.length) {
          gz.write(pieces[i++]);
          gz.flush();
        }
      }, 10);
      closed = new Promise((resolve) =>
        res.on('close', () => {
          clearInterval(timer);
          gz.destroy();
          resolve();
        }),
      );
      return true;
    };
    const w = await client.get().resource('configmaps').param('resourceVersion', '9').watch<KubeObject>();
    const first = await w.next();
    const second = await w.next();
    expect(first.value?.type).toBe('ADDED');
    expect(first.value?.object.metadata?.name).toBe('x');
    expect(second.value?.type).toBe('ERROR');
    expect((second.value?.object as { code?: number }).code).toBe(410);
    w.stop();
    expect((await w.next()).done).toBe(true);
    await closed;
    server.hook = undefined;
  });
});
