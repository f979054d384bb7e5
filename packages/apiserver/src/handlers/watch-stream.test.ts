import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { ProtobufCodec } from '@orch/api';
import { WatchStream } from './watch-stream';

const json = { format: 'json' as const, contentType: 'application/json' };
// JSON streams never touch the protobuf codec
const codec = {} as ProtobufCodec;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The chunks of a chunked HTTP/1.1 response body, as text, in order. */
function chunksOf(raw: string): string[] {
  let rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const chunks: string[] = [];
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (size === 0) return chunks;
    const bytes = Buffer.from(rest.slice(eol + 2));
    chunks.push(bytes.subarray(0, size).toString());
    rest = bytes.subarray(size + 2).toString();
  }
}

/** Raw GET on a fresh connection; resolves with everything the server sent once it ends. */
function rawGet(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write('GET /watch HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    const data: Buffer[] = [];
    socket.on('data', (d) => data.push(d));
    socket.on('end', () => resolve(Buffer.concat(data).toString()));
    socket.on('error', reject);
  });
}

describe('WatchStream', () => {
  let server: Server;
  let port: number;
  let arrived: ((res: ServerResponse) => void)[];

  beforeEach(async () => {
    arrived = [];
    server = createServer((_req, res) => {
      const next = arrived.shift();
      if (next) next(res);
      else res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const accepted = () => new Promise<ServerResponse>((resolve) => arrived.push(resolve));

  test('the events of one turn leave as one chunk per watcher, in order, each watcher its own', async () => {
    const responses = [accepted(), accepted()];
    const bodies = [rawGet(port), rawGet(port)];
    const [a, b] = (await Promise.all(responses)).map((res) => new WatchStream(res, json, codec, [], 60));
    const objects = [1, 2, 3].map((n) => ({ kind: 'Pod', metadata: { name: `p${n}` } }));
    a!.send('ADDED', objects[0]);
    b!.send('ADDED', objects[0]);
    a!.send('ADDED', objects[1]);
    b!.send('ADDED', objects[1]);
    a!.send('ADDED', objects[2]);
    await tick();
    a!.send('MODIFIED', objects[0]);
    b!.send('MODIFIED', objects[0]);
    await tick();
    a!.end();
    b!.end();
    const [rawA, rawB] = await Promise.all(bodies);
    const line = (type: string, n: number) => JSON.stringify({ type, object: objects[n - 1] }) + '\n';
    expect(chunksOf(rawA!)).toEqual([
      line('ADDED', 1) + line('ADDED', 2) + line('ADDED', 3),
      line('MODIFIED', 1),
    ]);
    expect(chunksOf(rawB!)).toEqual([line('ADDED', 1) + line('ADDED', 2), line('MODIFIED', 1)]);
    expect(rawA).toContain('Transfer-Encoding: chunked');
  });

  test('a watch answered while an earlier answer holds the connection (pipelined) is written after it', async () => {
    const [first, second] = [accepted(), accepted()];
    const raw = new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          'GET /watch HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /watch HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
        ),
      );
      const data: Buffer[] = [];
      socket.on('data', (d) => data.push(d));
      socket.on('end', () => resolve(Buffer.concat(data).toString()));
      socket.on('error', reject);
    });
    const a = new WatchStream(await first, json, codec, [], 60);
    const b = new WatchStream(await second, json, codec, [], 60);
    const object = (name: string) => ({ kind: 'Pod', metadata: { name } });
    b.send('ADDED', object('second'));
    a.send('ADDED', object('first'));
    await tick();
    b.end();
    await tick();
    a.end();
    const text = await raw;
    const answers = text.split(/(?=HTTP\/1\.1 200)/);
    expect(answers).toHaveLength(2);
    expect(chunksOf(answers[0]!)).toEqual([
      JSON.stringify({ type: 'ADDED', object: object('first') }) + '\n',
    ]);
    expect(chunksOf(answers[1]!)).toEqual([
      JSON.stringify({ type: 'ADDED', object: object('second') }) + '\n',
    ]);
  });

  test('ending the stream writes what was sent in the same turn first', async () => {
    const response = accepted();
    const body = rawGet(port);
    const stream = new WatchStream(await response, json, codec, [], 60);
    const status = { kind: 'Status', status: 'Failure', code: 410 };
    stream.send('ERROR', status);
    stream.end();
    stream.send('ADDED', { kind: 'Pod' });
    expect(chunksOf(await body)).toEqual([JSON.stringify({ type: 'ERROR', object: status }) + '\n']);
  });
});
