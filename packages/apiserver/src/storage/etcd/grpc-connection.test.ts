import {
  constants as h2,
  createServer,
  type Http2Server,
  type Http2Session,
  type SecureServerOptions,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { freePort } from '../testing/free-port';
import { EtcdCallError, GrpcStatus } from './etcd-call-error';
import { GrpcConnection } from './grpc-connection';

/**
 * The connection against Node's own HTTP/2 server (nghttp2) as the gRPC peer: the framing cases etcd
 * does not show on demand (padding, CONTINUATION, PING, GOAWAY, refused streams, stream limits).
 */

type Handler = (stream: ServerHttp2Stream, request: Buffer, headers: Record<string, unknown>) => void;

let server: Http2Server;
let url: string;
let handler: Handler;
const sessions = new Set<Http2Session>();
const connections: GrpcConnection[] = [];

function grpcFrame(message: Buffer): Buffer {
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

/** Answers with `message` and status OK in the trailers. */
function answer(stream: ServerHttp2Stream, message: Buffer, trailers: Record<string, string> = {}): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () =>
    stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': '', ...trailers }),
  );
  stream.end(grpcFrame(message));
}

async function startServer(options: SecureServerOptions = {}): Promise<void> {
  server = createServer(options);
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => handler(stream, Buffer.concat(chunks).subarray(5), headers));
    stream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stopServer(): Promise<void> {
  for (const s of sessions) s.destroy();
  await new Promise((resolve) => server.close(resolve));
}

function connection(): GrpcConnection {
  const c = new GrpcConnection({ url });
  connections.push(c);
  return c;
}

const echo: Handler = (stream, request) => answer(stream, request);
const soon = (ms = 5000) => Date.now() + ms;

beforeEach(async () => {
  handler = echo;
  await startServer();
});

afterEach(async () => {
  for (const c of connections.splice(0)) c.close();
  await stopServer();
});

describe('GrpcConnection', () => {
  test('a unary call: the request message reaches the server with gRPC headers, the answer comes back', async () => {
    let seen: Record<string, unknown> = {};
    handler = (stream, request, headers) => {
      seen = headers;
      answer(stream, Buffer.concat([Buffer.from('echo:'), request]));
    };
    const c = connection();
    const reply = await c.unary('/etcdserverpb.KV/Range', grpcFrame(Buffer.from('hello')), soon());
    expect(reply.toString()).toBe('echo:hello');
    expect(seen[':method']).toBe('POST');
    expect(seen[':path']).toBe('/etcdserverpb.KV/Range');
    expect(seen['content-type']).toBe('application/grpc');
    expect(seen['te']).toBe('trailers');
    expect(seen[':authority']).toBe(new URL(url).host);
    expect(String(seen['grpc-timeout'])).toMatch(/^\d+m$/);
    expect(Number(String(seen['grpc-timeout']).slice(0, -1))).toBeGreaterThan(4000);
  });

  test('many calls at once share the connection, each gets its own answer', async () => {
    const c = connection();
    const replies = await Promise.all(
      Array.from({ length: 500 }, (_, i) => c.unary('/x', grpcFrame(Buffer.from(`m${i}`)), soon())),
    );
    expect(replies.map(String)).toEqual(Array.from({ length: 500 }, (_, i) => `m${i}`));
    expect(sessions.size).toBe(1);
  });

  test('a status other than OK (trailers only) rejects with the code and the decoded message', async () => {
    handler = (stream) =>
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': String(GrpcStatus.Unavailable),
          'grpc-message': 'etcdserver%3A no leader',
        },
        { endStream: true },
      );
    const error = await connection()
      .unary('/x', grpcFrame(Buffer.from('a')), soon())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtcdCallError);
    expect((error as EtcdCallError).code).toBe(GrpcStatus.Unavailable);
    expect((error as EtcdCallError).message).toBe('etcdserver: no leader');
    // etcd answered: try again, but the member is not to blame
    expect((error as EtcdCallError).retryable).toBe(true);
    expect((error as EtcdCallError).memberFailure).toBe(false);
  });

  test('an answer without a gRPC status is a member failure', async () => {
    handler = (stream) => {
      stream.respond({ ':status': 503 });
      stream.end('overloaded');
    };
    const error = await connection()
      .unary('/x', grpcFrame(Buffer.from('a')), soon())
      .catch((e: unknown) => e);
    expect((error as EtcdCallError).message).toContain('HTTP status 503 without a gRPC status');
    expect((error as EtcdCallError).memberFailure).toBe(true);
  });

  test('a request far beyond the server’s 64 KiB window waits for its WINDOW_UPDATEs', async () => {
    const big = Buffer.alloc(3 << 20, 7);
    handler = (stream, request) =>
      answer(stream, Buffer.from(`${request.length}:${request.every((b) => b === 7)}`));
    const c = connection();
    const replies = await Promise.all([1, 2, 3].map(() => c.unary('/x', grpcFrame(big), soon())));
    expect(replies.map(String)).toEqual(['3145728:true', '3145728:true', '3145728:true']);
  });

  test('an answer far beyond the 16 MiB receive window arrives whole', async () => {
    const big = Buffer.alloc(40 << 20);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    handler = (stream) => answer(stream, big);
    const reply = await connection().unary('/x', grpcFrame(Buffer.from('a')), soon(20_000));
    expect(reply.length).toBe(big.length);
    expect(reply.equals(big)).toBe(true);
  });

  test('padded frames and a trailer block split into CONTINUATION frames are read', async () => {
    await stopServer();
    await startServer({ paddingStrategy: h2.PADDING_STRATEGY_MAX });
    handler = (stream, request) => answer(stream, request, { 'x-large': 'v'.repeat(40_000) });
    const c = connection();
    for (let i = 0; i < 3; i++) {
      expect(String(await c.unary('/x', grpcFrame(Buffer.from(`padded ${i}`)), soon()))).toBe(`padded ${i}`);
    }
  });

  test('a PING from the server is answered', async () => {
    const c = connection();
    await c.unary('/x', grpcFrame(Buffer.from('a')), soon());
    const [session] = sessions;
    const rtt = await new Promise<number>((resolve, reject) =>
      session.ping((error, duration) => (error ? reject(error) : resolve(duration))),
    );
    expect(rtt).toBeGreaterThanOrEqual(0);
  });

  test('the server’s stream limit is kept: calls beyond it wait for a free stream', async () => {
    await stopServer();
    await startServer({ settings: { maxConcurrentStreams: 2 } });
    let open = 0;
    let most = 0;
    handler = (stream, request) => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        answer(stream, request);
      }, 5);
    };
    const c = connection();
    // the server's SETTINGS arrive with the first answer
    await c.unary('/x', grpcFrame(Buffer.from('first')), soon());
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => c.unary('/x', grpcFrame(Buffer.from(`m${i}`)), soon())),
    );
    expect(replies.map(String)).toEqual(Array.from({ length: 12 }, (_, i) => `m${i}`));
    expect(most).toBe(2);
  });

  test('a refused stream is retryable without blaming the member', async () => {
    handler = (stream) => stream.close(h2.NGHTTP2_REFUSED_STREAM);
    const error = await connection()
      .unary('/x', grpcFrame(Buffer.from('a')), soon())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtcdCallError);
    expect((error as EtcdCallError).retryable).toBe(true);
    expect((error as EtcdCallError).memberFailure).toBe(false);
  });

  test('GOAWAY: calls the server took finish, later ones fail retryably, and the connection takes no more', async () => {
    const held: ServerHttp2Stream[] = [];
    handler = (stream) => held.push(stream);
    const c = connection();
    const first = c.unary('/x', grpcFrame(Buffer.from('one')), soon());
    await new Promise<void>((resolve) => {
      const wait = () => (held.length === 1 ? resolve() : setTimeout(wait, 2));
      wait();
    });
    const [session] = sessions;
    session.goaway(h2.NGHTTP2_NO_ERROR, held[0].id!);
    const second = c.unary('/x', grpcFrame(Buffer.from('two')), soon()).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(c.usable).toBe(false);
    answer(held[0], Buffer.from('done'));
    expect(String(await first)).toBe('done');
    const error = await second;
    expect(error).toBeInstanceOf(EtcdCallError);
    expect((error as EtcdCallError).retryable).toBe(true);
    await expect(c.unary('/x', grpcFrame(Buffer.from('three')), soon())).rejects.toThrow('not usable');
  });

  test('a call past its deadline fails as DeadlineExceeded and its stream is cancelled', async () => {
    let reset: number | undefined;
    handler = (stream) => stream.on('close', () => (reset = stream.rstCode));
    const c = connection();
    const started = Date.now();
    const error = await c.unary('/x', grpcFrame(Buffer.from('a')), Date.now() + 200).catch((e: unknown) => e);
    expect((error as EtcdCallError).code).toBe(GrpcStatus.DeadlineExceeded);
    expect((error as EtcdCallError).retryable).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reset).toBe(h2.NGHTTP2_CANCEL);
    // the connection goes on
    handler = echo;
    expect(String(await c.unary('/x', grpcFrame(Buffer.from('b')), soon()))).toBe('b');
  });

  test('a connection the server drops fails its calls as member failures', async () => {
    handler = () => {
      for (const s of sessions) s.destroy();
    };
    const c = connection();
    const error = await c.unary('/x', grpcFrame(Buffer.from('a')), soon()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtcdCallError);
    expect((error as EtcdCallError).retryable).toBe(true);
    expect((error as EtcdCallError).memberFailure).toBe(true);
    expect(c.usable).toBe(false);
  });

  test('nothing listening: the call fails as a member failure', async () => {
    const c = new GrpcConnection({ url: `http://127.0.0.1:${await freePort()}` });
    connections.push(c);
    const error = await c.unary('/x', grpcFrame(Buffer.from('a')), soon()).catch((e: unknown) => e);
    expect((error as EtcdCallError).memberFailure).toBe(true);
    expect((error as EtcdCallError).message).toContain('ECONNREFUSED');
  });

  test('a closed connection fails its calls and takes no new ones', async () => {
    handler = () => undefined;
    const c = connection();
    const pending = c.unary('/x', grpcFrame(Buffer.from('a')), soon()).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    c.close();
    expect(await pending).toBeInstanceOf(EtcdCallError);
    await expect(c.unary('/x', grpcFrame(Buffer.from('b')), soon())).rejects.toThrow('not usable');
  });
});
