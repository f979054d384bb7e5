import { connect, createServer, type Server } from 'node:net';
import { defaultServiceNodePortRange, parsePortRange } from '../registry/strategies/service-ip-allocator';

/**
 * A TCP server on 127.0.0.1 answering each connection's first data with `${tag}:${data}`, then
 * closing it; on `port`, or one the OS picks.
 */
export async function startEchoServer(tag: string, port = 0): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.on('data', (d) => socket.end(`${tag}:${d.toString()}`)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

/**
 * {@link startEchoServer} on a free port of `first`..`last` (inclusive), tried from a random start:
 * a port a test names to the server under test (a service's node port) and already holds, so that
 * nothing else on the machine can take it in between.
 */
export async function startEchoServerInRange(
  tag: string,
  first: number,
  last: number,
): Promise<{ server: Server; port: number }> {
  const size = last - first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    try {
      return await startEchoServer(tag, first + ((start + i) % size));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
  throw new Error(`no free port in ${first}-${last}`);
}

/**
 * {@link startEchoServerInRange} over the default node port range: a test's stand-in for a node
 * listening on a service's node port, which the test then gives the service as its `nodePort`.
 */
export function startNodePortEchoServer(tag: string): Promise<{ server: Server; port: number }> {
  return startEchoServerInRange(tag, ...parsePortRange(defaultServiceNodePortRange));
}

/** Connects to `host:port`, writes `text` and resolves with all that comes back before the close. */
export function tcpExchange(host: string, port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => socket.write(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}
