import type { IncomingMessage, ServerResponse } from 'node:http';
import { upgradeOf } from '@orch/component-base';
import type { ContainerAttach, ExecIO, ExecResult, PodRunner, StreamRefusal } from '../runtime/PodRunner';
import { SpdyConnection, type SpdyStream } from './spdy/SpdyConnection';

/** The stream protocols of exec and attach, most preferred first (remotecommand). */
export const REMOTE_COMMAND_PROTOCOLS = [
  'v4.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
];
/** The stream protocol of port forwarding. */
export const PORT_FORWARD_PROTOCOLS = ['portforward.k8s.io'];
/** How long the client has to open the streams it asked for (the kubelet's stream creation timeout). */
export const STREAM_CREATION_TIMEOUT_MS = 30_000;

const PROTOCOL_HEADER = 'x-stream-protocol-version';

function sendText(
  res: ServerResponse,
  code: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(`${text}\n`);
}

/** The values of a header that may come several times or comma-separated. */
function headerValues(req: IncomingMessage, name: string): string[] {
  const raw = req.headersDistinct[name] ?? [];
  return raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * The stream protocol both sides speak: the client's first that the server accepts. Answers the
 * error itself (Kubernetes' httpstream handshake) and returns undefined when there is none.
 */
export function negotiateProtocol(
  req: IncomingMessage,
  res: ServerResponse,
  serverProtocols: readonly string[],
): string | undefined {
  const client = headerValues(req, PROTOCOL_HEADER);
  if (client.length === 0) {
    sendText(res, 400, `unable to upgrade: X-Stream-Protocol-Version is required`);
    return undefined;
  }
  const chosen = client.find((p) => serverProtocols.includes(p));
  if (!chosen) {
    sendText(
      res,
      403,
      `unable to upgrade: unable to negotiate protocol: client supports [${client.join(' ')}], server accepts [${serverProtocols.join(' ')}]`,
      { 'X-Accepted-Stream-Protocol-Versions': serverProtocols.join(', ') },
    );
    return undefined;
  }
  return chosen;
}

/**
 * Switches the connection to SPDY/3.1 after negotiating the stream protocol: the 101 answer, then a
 * server-side SPDY session. Answers the error itself and returns undefined when it cannot.
 */
export function upgradeToSpdy(
  req: IncomingMessage,
  res: ServerResponse,
  serverProtocols: readonly string[],
): { conn: SpdyConnection; protocol: string } | undefined {
  const protocol = negotiateProtocol(req, res, serverProtocols);
  if (!protocol) return undefined;
  const upgrade = upgradeOf(req);
  const connection = (req.headers.connection ?? '').toLowerCase();
  const wanted = (req.headers.upgrade ?? '').toLowerCase();
  if (!upgrade || !connection.includes('upgrade') || !wanted.includes('spdy/3.1')) {
    sendText(res, 400, 'unable to upgrade: missing upgrade headers in request');
    return undefined;
  }
  upgrade.socket.write(
    'HTTP/1.1 101 Switching Protocols\r\n' +
      'Connection: Upgrade\r\n' +
      'Upgrade: SPDY/3.1\r\n' +
      `X-Stream-Protocol-Version: ${protocol}\r\n` +
      `Date: ${new Date().toUTCString()}\r\n\r\n`,
  );
  return { conn: new SpdyConnection(upgrade.socket, 'server', upgrade.head), protocol };
}

/** The kubelet's remote command options: `input`, `output`, `error`, `tty`, each set by "1". */
export interface RemoteCommandOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Reads the options as the kubelet does; a message when none of the three streams is asked for. */
export function remoteCommandOptions(q: URLSearchParams): RemoteCommandOptions | string {
  const tty = q.get('tty') === '1';
  const stdin = q.get('input') === '1';
  const stdout = q.get('output') === '1';
  // a terminal carries standard error on standard output
  const stderr = q.get('error') === '1' && !tty;
  if (!stdin && !stdout && !stderr) return 'you must specify at least 1 of stdin, stdout, stderr';
  return { stdin, stdout, stderr, tty };
}

interface CommandStreams {
  error?: SpdyStream;
  stdin?: SpdyStream;
  stdout?: SpdyStream;
  stderr?: SpdyStream;
  resize?: SpdyStream;
}

/** Waits for the streams the client must open, accepting each; undefined when they do not come in time. */
function waitForStreams(
  conn: SpdyConnection,
  expected: number,
  timeoutMs: number,
): Promise<CommandStreams | undefined> {
  return new Promise((resolve) => {
    const streams: CommandStreams = {};
    let received = 0;
    const done = (value: CommandStreams | undefined) => {
      clearTimeout(timer);
      conn.off('stream', onStream);
      conn.off('close', onClose);
      resolve(value);
    };
    const onClose = () => done(undefined);
    const onStream = (stream: SpdyStream) => {
      const type = stream.headers.streamtype ?? '';
      if (!['error', 'stdin', 'stdout', 'stderr', 'resize'].includes(type)) {
        stream.reset();
        return;
      }
      streams[type as keyof CommandStreams] = stream;
      void stream.reply().then(() => {
        received++;
        if (received === expected) done(streams);
      });
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    conn.on('stream', onStream);
    conn.on('close', onClose);
  });
}

/** The Status the v4 error stream carries for how the command ended. */
export function execStatus(result: ExecResult): object {
  if ('error' in result) {
    const message = `error executing command in container: ${result.error}`;
    return {
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: ${message}`,
      reason: 'InternalError',
      details: { causes: [{ message }] },
      code: 500,
    };
  }
  if (result.exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: command terminated with exit code ${result.exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(result.exitCode) }] },
  };
}

/** What the pre-v4 protocols write on the error stream: nothing on success, else the message. */
function legacyStatus(result: ExecResult): string {
  if ('error' in result)
    return `Internal error occurred: error executing command in container: ${result.error}`;
  return result.exitCode === 0 ? '' : `command terminated with exit code ${result.exitCode}`;
}

function endStream(stream: SpdyStream | undefined): Promise<void> {
  if (!stream || stream.writableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.end(() => resolve());
    stream.once('close', () => resolve());
  });
}

/**
 * `/exec/<namespace>/<pod>/<container>?command=...&input=1&output=1&error=1&tty=1`: the kubelet's
 * exec over SPDY/3.1. The runtime is asked first (an unknown pod or a container that does not run
 * is answered before switching protocols); then the client opens its streams (error, and those it
 * asked for), the command runs with them, and the error stream carries how it ended (v4: a Status
 * with the exit code).
 */
export function serveExec(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  runtime: PodRunner,
): Promise<void> {
  return serveRemoteCommand(req, res, url, 'exec', (namespace, pod, container) => {
    const target = runtime.exec(namespace, pod, container);
    if ('code' in target) return target;
    const command = url.searchParams.getAll('command');
    return { run: (io: ExecIO) => target.run(command, io) };
  });
}

/**
 * `/attach/<namespace>/<pod>/<container>?input=1&output=1&error=1&tty=1`: the kubelet's attach over
 * SPDY/3.1: the container's output from now on, and its stdin when it keeps one open, until the
 * container exits or the client goes; the error stream then carries success.
 */
export function serveAttach(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  runtime: PodRunner,
): Promise<void> {
  return serveRemoteCommand(req, res, url, 'attach', (namespace, pod, container) =>
    runtime.attach(namespace, pod, container),
  );
}

/** Exec and attach: the path, options and target checked, then the streams run over SPDY/3.1. */
async function serveRemoteCommand(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  kind: 'exec' | 'attach',
  targetOf: (namespace: string, pod: string, container: string) => ContainerAttach | StreamRefusal,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'POST') {
    sendText(res, 405, 'method not allowed');
    return;
  }
  const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
  if (parts.length !== 3 || parts.some((p) => p === '')) {
    sendText(res, 400, `${kind} path "${url.pathname}" must be /${kind}/<namespace>/<pod>/<container>`);
    return;
  }
  const [namespace, pod, container] = parts as [string, string, string];
  const options = remoteCommandOptions(url.searchParams);
  if (typeof options === 'string') {
    sendText(res, 400, options);
    return;
  }
  const target = targetOf(namespace, pod, container);
  if ('code' in target) {
    sendText(res, target.code, target.message);
    return;
  }
  const upgraded = upgradeToSpdy(req, res, REMOTE_COMMAND_PROTOCOLS);
  if (!upgraded) return;
  const { conn, protocol } = upgraded;
  const resizable = protocol === 'v4.channel.k8s.io' || protocol === 'v3.channel.k8s.io';
  const expected =
    1 +
    Number(options.stdin) +
    Number(options.stdout) +
    Number(options.stderr) +
    Number(options.tty && resizable);
  const streams = await waitForStreams(conn, expected, STREAM_CREATION_TIMEOUT_MS);
  if (!streams) {
    conn.destroy();
    return;
  }
  // terminal sizes are read and left aside: the process runtime allocates no terminal
  streams.resize?.resume();
  const abort = new AbortController();
  conn.once('close', () => abort.abort());
  const result = await target.run({
    ...(options.stdin && streams.stdin ? { stdin: streams.stdin } : {}),
    ...(options.stdout && streams.stdout ? { stdout: streams.stdout } : {}),
    ...(options.stderr && streams.stderr ? { stderr: streams.stderr } : {}),
    tty: options.tty,
    signal: abort.signal,
  });
  await Promise.all([endStream(streams.stdout), endStream(streams.stderr)]);
  const error = streams.error;
  if (error && !conn.isClosed) {
    const text = protocol === 'v4.channel.k8s.io' ? JSON.stringify(execStatus(result)) : legacyStatus(result);
    if (text) error.write(text);
    await endStream(error);
  }
  conn.close();
}

/**
 * `/portforward/<namespace>/<pod>`: the kubelet's port forwarding over SPDY/3.1. Each forwarded
 * connection is a pair of streams the client opens with the same `requestID` and `port` headers: an
 * error stream and a data stream; the data stream is piped to a connection to the port in the
 * pod, and a failure is written on the error stream.
 */
export function servePortForward(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  runtime: PodRunner,
): void {
  if (req.method !== 'GET' && req.method !== 'POST') {
    sendText(res, 405, 'method not allowed');
    return;
  }
  const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
  if (parts.length !== 2 || parts.some((p) => p === '')) {
    sendText(res, 400, `port forward path "${url.pathname}" must be /portforward/<namespace>/<pod>`);
    return;
  }
  const [namespace, pod] = parts as [string, string];
  const forwarder = runtime.portForward(namespace, pod);
  if ('code' in forwarder) {
    sendText(res, forwarder.code, forwarder.message);
    return;
  }
  const upgraded = upgradeToSpdy(req, res, PORT_FORWARD_PROTOCOLS);
  if (!upgraded) return;
  const { conn } = upgraded;
  const pairs = new Map<string, { data?: SpdyStream; error?: SpdyStream; timer: NodeJS.Timeout }>();
  conn.on('stream', (stream: SpdyStream) => {
    const portText = stream.headers.port ?? '';
    const type = stream.headers.streamtype ?? '';
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535 || (type !== 'data' && type !== 'error')) {
      stream.reset();
      return;
    }
    void stream.reply();
    const requestID = stream.headers.requestid ?? String(type === 'error' ? stream.id : stream.id - 2);
    let pair = pairs.get(requestID);
    if (!pair) {
      const timer = setTimeout(() => {
        pairs.delete(requestID);
        pair?.error?.end(`timed out waiting for streams of request ${requestID}`);
      }, STREAM_CREATION_TIMEOUT_MS);
      pair = { timer };
      pairs.set(requestID, pair);
    }
    if (pair[type as 'data' | 'error']) {
      pair.error?.write(`error processing stream for request ${requestID}: ${type} stream already assigned`);
      stream.reset();
      return;
    }
    pair[type as 'data' | 'error'] = stream;
    if (pair.data && pair.error) {
      clearTimeout(pair.timer);
      pairs.delete(requestID);
      void forward(pod, port, pair.data, pair.error, forwarder.dial);
    }
  });
}

async function forward(
  pod: string,
  port: number,
  data: SpdyStream,
  error: SpdyStream,
  dial: (port: number) => Promise<import('node:net').Socket>,
): Promise<void> {
  // what the client sends on the error stream is read and left aside
  error.resume();
  let socket;
  try {
    socket = await dial(port);
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ECONNREFUSED'
        ? 'connect: connection refused'
        : String((err as Error).message);
    error.end(
      `error forwarding port ${port} to pod ${pod}: failed to connect to localhost:${port} inside namespace "${pod}", IPv4: dial tcp4 127.0.0.1:${port}: ${reason}`,
    );
    data.end();
    return;
  }
  socket.on('error', () => undefined);
  data.on('error', () => socket.destroy());
  data.pipe(socket);
  socket.pipe(data);
  socket.once('close', () => {
    error.end();
    if (!data.writableEnded) data.end();
  });
  data.once('close', () => socket.destroy());
}
