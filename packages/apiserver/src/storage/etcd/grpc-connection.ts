import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { decompressor, type Decompressor } from 'hpack.js';
import { EtcdCallError, GrpcStatus, statusError } from './etcd-call-error';

/**
 * One HTTP/2 connection to an etcd member (RFC 9113 framing of its own over a TCP or TLS socket)
 * carrying gRPC unary calls: a framed request out, the framed answer back, the status from the
 * trailers.
 *
 * Node's HTTP/2 client makes a duplex stream object, an async resource and a header object for every
 * call, which cost an apiserver write about as much CPU as the rest of its storage path; a unary call
 * needs none of that. Frames of all calls started in one turn of the event loop go out in one write.
 * Request headers are sent as HPACK literals (never indexed), so only the decoding side of HPACK,
 * with the dynamic table the server fills, is needed (hpack.js).
 *
 * Flow control both ways: the connection and every stream receive with a 16 MiB window, returned
 * as data is taken; request data waits for the server's windows.
 */

export interface GrpcConnectionOptions {
  /** `http://host:port` or `https://host:port`. */
  url: string;
  /** TLS for an `https://` URL. */
  tls?: Pick<ConnectionOptions, 'ca' | 'cert' | 'key'>;
}

const FrameType = {
  DATA: 0,
  HEADERS: 1,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
} as const;
const Flag = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const;
const Setting = {
  HEADER_TABLE_SIZE: 1,
  ENABLE_PUSH: 2,
  MAX_CONCURRENT_STREAMS: 3,
  INITIAL_WINDOW_SIZE: 4,
  MAX_FRAME_SIZE: 5,
} as const;
const ErrorCode = { NO_ERROR: 0, PROTOCOL_ERROR: 1, REFUSED_STREAM: 7, CANCEL: 8 } as const;

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
/** The receive window of the connection and of each stream. */
const WINDOW = 16 << 20;
/** HTTP/2's initial window and largest frame until the server's SETTINGS say otherwise. */
const DEFAULT_WINDOW = 65_535;
const DEFAULT_MAX_FRAME = 16_384;
/** The header table size the server's encoder starts with (HPACK's default). */
const HEADER_TABLE_SIZE = 4096;
/** Stream ids are 31 bits; a connection that has used this many takes no new calls. */
const LAST_STREAM_ID = 0x7fff_fff0;

interface Call {
  id: number;
  resolve: (message: Buffer) => void;
  reject: (error: EtcdCallError) => void;
  timer: NodeJS.Timeout;
  /** Request bytes (the framed message) the server's windows have not let out yet. */
  unsent: Buffer | undefined;
  sendWindow: number;
  /** Received bytes not yet given back to the server in a WINDOW_UPDATE. */
  unacked: number;
  chunks: Buffer[];
  httpStatus: number;
  grpcStatus: number | undefined;
  grpcMessage: string;
}

/** HPACK integer with an `prefixBits`-bit prefix, the first byte or'ed with `first`. */
function hpackInteger(value: number, prefixBits: number, first: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [first | value];
  const out = [first | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

/** An HPACK string literal, not Huffman-coded. */
function hpackString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(hpackInteger(bytes.length, 7, 0)), bytes]);
}

/** A header field as a literal never added to the table; `nameIndex` from HPACK's static table or 0. */
function hpackLiteral(nameIndex: number, name: string, value: string): Buffer {
  const parts: Buffer[] = [Buffer.from(hpackInteger(nameIndex, 4, 0))];
  if (nameIndex === 0) parts.push(hpackString(name));
  parts.push(hpackString(value));
  return Buffer.concat(parts);
}

/** A frame payload of 32-bit big-endian words. */
function uint32s(...words: number[]): Buffer {
  const payload = Buffer.allocUnsafe(4 * words.length);
  words.forEach((w, i) => payload.writeUInt32BE(w, 4 * i));
  return payload;
}

function frameHeader(length: number, type: number, flags: number, streamId: number): Buffer {
  const h = Buffer.allocUnsafe(9);
  h.writeUIntBE(length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return h;
}

export class GrpcConnection {
  private readonly socket: Socket;
  private readonly calls = new Map<number, Call>();
  /** Calls waiting for the server's windows, in order. */
  private blocked: Call[] = [];
  /** Calls waiting for a stream (the server's MAX_CONCURRENT_STREAMS), as starters. */
  private waiting: (() => void)[] = [];
  private nextId = 1;
  private out: Buffer[] = [];
  private flushScheduled = false;
  private pending: Buffer | undefined;
  private readonly decoder: Decompressor = decompressor.create({ table: { size: HEADER_TABLE_SIZE } });
  /** A header block still arriving in CONTINUATION frames. */
  private block: { streamId: number; endStream: boolean; fragments: Buffer[] } | undefined;
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = DEFAULT_MAX_FRAME;
  private peerMaxStreams = Infinity;
  private unacked = 0;
  private goingAway = false;
  private closed = false;
  /** The header block of each path, all but grpc-timeout. */
  private readonly headerBlocks = new Map<string, Buffer>();
  private readonly scheme: 'http' | 'https';
  private readonly authority: string;

  constructor(readonly options: GrpcConnectionOptions) {
    const url = new URL(options.url);
    this.scheme = url.protocol === 'https:' ? 'https' : 'http';
    this.authority = url.host;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (this.scheme === 'https' ? 443 : 80));
    if (this.scheme === 'https') {
      const socket = tlsConnect({
        ...options.tls,
        host,
        port,
        servername: isIP(host) ? undefined : host,
        ALPNProtocols: ['h2'],
      });
      socket.once('secureConnect', () => {
        if (socket.alpnProtocol !== 'h2')
          this.fail(new Error(`${options.url} does not speak HTTP/2 over TLS`));
      });
      this.socket = socket;
    } else {
      this.socket = netConnect({ host, port });
    }
    this.socket.setNoDelay(true);
    // no keep-alive of its own: an idle connection must not hold the process open (a call's
    // deadline timer does while it runs)
    this.socket.unref();
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
    const settings = Buffer.alloc(12);
    settings.writeUInt16BE(Setting.ENABLE_PUSH, 0);
    settings.writeUInt32BE(0, 2);
    settings.writeUInt16BE(Setting.INITIAL_WINDOW_SIZE, 6);
    settings.writeUInt32BE(WINDOW, 8);
    this.queue(PREFACE, frameHeader(12, FrameType.SETTINGS, 0, 0), settings);
    this.windowUpdate(0, WINDOW - DEFAULT_WINDOW);
  }

  /** True while the connection takes new calls. */
  get usable(): boolean {
    return !this.closed && !this.goingAway && this.nextId < LAST_STREAM_ID;
  }

  /**
   * One unary call: `frame` is the gRPC-framed request message; resolves with the answer's message,
   * or rejects with an {@link EtcdCallError} (a status other than OK, a reset stream, a lost
   * connection, or the deadline, a `Date.now()` time).
   */
  unary(path: string, frame: Buffer, deadline: number): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const start = () => this.start(path, frame, deadline, resolve, reject);
      // start() refuses the call itself when the connection cannot take it
      if (this.usable && this.calls.size >= this.peerMaxStreams) this.waiting.push(start);
      else start();
    });
  }

  /** Ends the connection: calls in flight fail (retryable). */
  close(): void {
    if (this.closed) return;
    this.goaway(ErrorCode.NO_ERROR);
    this.flush();
    this.fail(new Error('connection closed'), false);
  }

  private start(
    path: string,
    frame: Buffer,
    deadline: number,
    resolve: (message: Buffer) => void,
    reject: (error: EtcdCallError) => void,
  ): void {
    if (!this.usable) {
      reject(new EtcdCallError(`${this.options.url}: connection not usable`, undefined, true, true));
      return;
    }
    const id = this.nextId;
    this.nextId += 2;
    const remaining = Math.max(1, deadline - Date.now());
    const call: Call = {
      id,
      resolve,
      reject,
      timer: setTimeout(() => this.expire(call), remaining),
      unsent: frame,
      sendWindow: this.peerInitialWindow,
      unacked: 0,
      chunks: [],
      httpStatus: 0,
      grpcStatus: undefined,
      grpcMessage: '',
    };
    this.calls.set(id, call);
    const block = Buffer.concat([this.headerBlock(path), hpackLiteral(0, 'grpc-timeout', `${remaining}m`)]);
    this.queue(frameHeader(block.length, FrameType.HEADERS, Flag.END_HEADERS, id), block);
    this.send(call);
  }

  /** The request header block of `path`, without the timeout. */
  private headerBlock(path: string): Buffer {
    let block = this.headerBlocks.get(path);
    if (!block) {
      // static table: 3 :method POST, 6/7 :scheme http/https, 1 :authority, 4 :path, 31 content-type
      block = Buffer.concat([
        Buffer.from([0x83, this.scheme === 'https' ? 0x87 : 0x86]),
        hpackLiteral(1, ':authority', this.authority),
        hpackLiteral(4, ':path', path),
        hpackLiteral(31, 'content-type', 'application/grpc'),
        hpackLiteral(0, 'te', 'trailers'),
      ]);
      this.headerBlocks.set(path, block);
    }
    return block;
  }

  /** Sends what the windows allow of the call's request; the last frame ends the stream. */
  private send(call: Call): void {
    let data = call.unsent;
    while (data) {
      const n = Math.min(data.length, this.peerMaxFrame, this.sendWindow, call.sendWindow);
      if (n <= 0 && data.length > 0) break;
      const last = n === data.length;
      this.queue(frameHeader(n, FrameType.DATA, last ? Flag.END_STREAM : 0, call.id), data.subarray(0, n));
      this.sendWindow -= n;
      call.sendWindow -= n;
      data = last ? undefined : data.subarray(n);
    }
    call.unsent = data;
    if (data && !this.blocked.includes(call)) this.blocked.push(call);
  }

  /** Sends the blocked calls' request data the windows now allow. */
  private unblock(): void {
    const blocked = this.blocked;
    this.blocked = [];
    for (const call of blocked) if (this.calls.get(call.id) === call) this.send(call);
  }

  private expire(call: Call): void {
    if (this.calls.get(call.id) !== call) return;
    this.queue(frameHeader(4, FrameType.RST_STREAM, 0, call.id), uint32s(ErrorCode.CANCEL));
    this.end(call, new EtcdCallError('etcd: deadline exceeded', GrpcStatus.DeadlineExceeded, false, false));
  }

  /** Removes a call, settling it with `error` or with its answer. */
  private end(call: Call, error?: EtcdCallError): void {
    this.calls.delete(call.id);
    clearTimeout(call.timer);
    if (error) {
      call.reject(error);
    } else if (call.grpcStatus === undefined) {
      const why =
        call.httpStatus && call.httpStatus !== 200 ? `HTTP status ${call.httpStatus}` : 'stream ended';
      call.reject(new EtcdCallError(`etcd: ${why} without a gRPC status`, undefined, true, true));
    } else if (call.grpcStatus !== GrpcStatus.OK) {
      call.reject(statusError(call.grpcStatus, call.grpcMessage));
    } else {
      const answer = call.chunks.length === 1 ? call.chunks[0] : Buffer.concat(call.chunks);
      if (answer.length < 5 || answer[0] !== 0 || answer.length < 5 + answer.readUInt32BE(1)) {
        call.reject(new EtcdCallError('etcd: malformed answer', GrpcStatus.Internal, false, false));
      } else {
        call.resolve(answer.subarray(5, 5 + answer.readUInt32BE(1)));
      }
    }
    const next = this.waiting.shift();
    if (next) next();
    if (this.goingAway && this.calls.size === 0) this.socket.end();
  }

  private onData(chunk: Buffer): void {
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let offset = 0;
    try {
      while (buf.length - offset >= 9) {
        const length = buf.readUIntBE(offset, 3);
        if (length > DEFAULT_MAX_FRAME) throw new Error(`frame of ${length} bytes, more than allowed`);
        if (buf.length - offset < 9 + length) break;
        const type = buf[offset + 3];
        const flags = buf[offset + 4];
        const streamId = buf.readUInt32BE(offset + 5) & 0x7fff_ffff;
        this.onFrame(type, flags, streamId, buf.subarray(offset + 9, offset + 9 + length));
        offset += 9 + length;
        if (this.closed) return;
      }
    } catch (error) {
      this.goaway(ErrorCode.PROTOCOL_ERROR);
      this.flush();
      this.fail(error as Error, false);
      return;
    }
    buf = buf.subarray(offset);
    this.pending = buf.length ? buf : undefined;
  }

  private onFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (this.block && type !== FrameType.CONTINUATION) throw new Error('header block interrupted');
    switch (type) {
      case FrameType.DATA:
        return this.onDataFrame(flags, streamId, payload);
      case FrameType.HEADERS: {
        let start = 0;
        let end = payload.length;
        if (flags & Flag.PADDED) {
          start = 1;
          end -= payload[0];
        }
        if (flags & Flag.PRIORITY) start += 5;
        if (end < start) throw new Error('malformed HEADERS frame');
        this.block = {
          streamId,
          endStream: (flags & Flag.END_STREAM) !== 0,
          fragments: [payload.subarray(start, end)],
        };
        if (flags & Flag.END_HEADERS) this.onHeaderBlock();
        return;
      }
      case FrameType.CONTINUATION:
        if (!this.block || this.block.streamId !== streamId) throw new Error('unexpected CONTINUATION');
        this.block.fragments.push(payload);
        if (flags & Flag.END_HEADERS) this.onHeaderBlock();
        return;
      case FrameType.RST_STREAM: {
        const call = this.calls.get(streamId);
        if (!call) return;
        const code = payload.readUInt32BE(0);
        // a refused stream was not processed: try again, the member is fine
        const refused = code === ErrorCode.REFUSED_STREAM;
        return this.end(
          call,
          new EtcdCallError(
            `${this.options.url}: stream reset (HTTP/2 error ${code})`,
            undefined,
            true,
            !refused,
          ),
        );
      }
      case FrameType.SETTINGS:
        if (flags & Flag.ACK) return;
        for (let i = 0; i + 6 <= payload.length; i += 6)
          this.setting(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
        this.queue(frameHeader(0, FrameType.SETTINGS, Flag.ACK, 0));
        this.unblock();
        return;
      case FrameType.PING:
        if (!(flags & Flag.ACK))
          this.queue(frameHeader(8, FrameType.PING, Flag.ACK, 0), Buffer.from(payload));
        return;
      case FrameType.GOAWAY:
        return this.onGoaway(payload.readUInt32BE(0) & 0x7fff_ffff, payload.readUInt32BE(4));
      case FrameType.WINDOW_UPDATE: {
        const increment = payload.readUInt32BE(0) & 0x7fff_ffff;
        if (streamId === 0) this.sendWindow += increment;
        else {
          const call = this.calls.get(streamId);
          if (call) call.sendWindow += increment;
        }
        this.unblock();
        return;
      }
      case FrameType.PUSH_PROMISE:
        throw new Error('PUSH_PROMISE with push disabled');
      default:
        // PRIORITY and unknown frame types carry nothing for a client
        return;
    }
  }

  private setting(id: number, value: number): void {
    if (id === Setting.INITIAL_WINDOW_SIZE) {
      const delta = value - this.peerInitialWindow;
      this.peerInitialWindow = value;
      for (const call of this.calls.values()) call.sendWindow += delta;
    } else if (id === Setting.MAX_FRAME_SIZE) {
      this.peerMaxFrame = value;
    } else if (id === Setting.MAX_CONCURRENT_STREAMS) {
      this.peerMaxStreams = value;
    }
  }

  private onDataFrame(flags: number, streamId: number, payload: Buffer): void {
    // flow control counts the whole payload, padding included
    this.unacked += payload.length;
    if (this.unacked >= WINDOW / 2) {
      this.windowUpdate(0, this.unacked);
      this.unacked = 0;
    }
    const call = this.calls.get(streamId);
    if (!call) return;
    let data = payload;
    if (flags & Flag.PADDED) data = payload.subarray(1, payload.length - payload[0]);
    if (data.length) call.chunks.push(data);
    if (flags & Flag.END_STREAM) return this.end(call);
    call.unacked += payload.length;
    if (call.unacked >= WINDOW / 2) {
      this.windowUpdate(call.id, call.unacked);
      call.unacked = 0;
    }
  }

  /** Decodes a complete header block (every block, to keep HPACK's table in step with the server's). */
  private onHeaderBlock(): void {
    const { streamId, endStream, fragments } = this.block!;
    this.block = undefined;
    this.decoder.write(fragments.length === 1 ? fragments[0] : Buffer.concat(fragments));
    this.decoder.execute();
    const call = this.calls.get(streamId);
    for (let field = this.decoder.read(); field; field = this.decoder.read()) {
      if (!call) continue;
      if (field.name === ':status') call.httpStatus = Number(field.value);
      else if (field.name === 'grpc-status') call.grpcStatus = Number(field.value);
      else if (field.name === 'grpc-message') call.grpcMessage = decodeURIComponent(field.value);
    }
    if (call && endStream) this.end(call);
  }

  private onGoaway(lastStreamId: number, code: number): void {
    this.goingAway = true;
    for (const call of [...this.calls.values()]) {
      // streams after the last one the server took were not processed: safe to try elsewhere
      if (call.id > lastStreamId) {
        this.end(
          call,
          new EtcdCallError(
            `${this.options.url}: going away (HTTP/2 error ${code})`,
            undefined,
            true,
            code !== ErrorCode.NO_ERROR,
          ),
        );
      }
    }
    for (const start of this.waiting.splice(0)) start();
    if (this.calls.size === 0) this.socket.end();
  }

  /**
   * The connection broke or is closed: every call fails, retryable on another member. The socket is
   * ended after what was written (a GOAWAY), or destroyed.
   */
  private fail(error: Error, destroy = true): void {
    if (this.closed) return;
    this.closed = true;
    if (destroy) this.socket.destroy();
    else this.socket.end();
    const e = new EtcdCallError(`${this.options.url}: ${error.message}`, undefined, true, true);
    for (const call of [...this.calls.values()]) this.end(call, e);
    for (const start of this.waiting.splice(0)) start();
  }

  private windowUpdate(streamId: number, increment: number): void {
    this.queue(frameHeader(4, FrameType.WINDOW_UPDATE, 0, streamId), uint32s(increment));
  }

  /** GOAWAY: the server opened no streams, so the last one processed is 0. */
  private goaway(code: number): void {
    this.queue(frameHeader(8, FrameType.GOAWAY, 0, 0), uint32s(0, code));
  }

  /** Frames go out together once the current turn of the event loop is done. */
  private queue(...buffers: Buffer[]): void {
    if (this.closed) return;
    for (const b of buffers) this.out.push(b);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.out.length === 0 || this.closed) return;
    const data = this.out.length === 1 ? this.out[0] : Buffer.concat(this.out);
    this.out = [];
    this.socket.write(data);
  }
}
