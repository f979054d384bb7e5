import { EventEmitter } from 'node:events';
import { Duplex } from 'node:stream';
import * as zlib from 'node:zlib';
import { SPDY_DICTIONARY } from './dictionary';

/** SPDY/3.1 control frame types. */
export const FrameType = {
  SYN_STREAM: 1,
  SYN_REPLY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  HEADERS: 8,
  WINDOW_UPDATE: 9,
} as const;

const FLAG_FIN = 0x01;
const VERSION = 3;
/** The largest data frame sent: larger writes are split. */
const MAX_DATA_FRAME = 32 * 1024;
/** A frame announcing more than this is refused as a protocol error (header blocks and data alike). */
const MAX_FRAME = 16 * 1024 * 1024 - 1;

/** RST_STREAM status codes. */
export const RstStatus = { PROTOCOL_ERROR: 1, INVALID_STREAM: 2, REFUSED_STREAM: 3, CANCEL: 5 } as const;

/** Header names (lower case) and values; several values of one name are joined by NUL, as SPDY sends them. */
export type SpdyHeaders = Record<string, string>;

/** One frame as read from the wire, its header block not yet decompressed. */
export interface RawFrame {
  control: boolean;
  /** Control frames: the type; data frames: 0. */
  type: number;
  flags: number;
  /** Data frames: the stream; control frames: 0 (the payload carries it). */
  streamId: number;
  payload: Buffer;
}

/**
 * Splits bytes into SPDY frames: the frames complete in `buffer` and the bytes left over.
 * Throws on a control frame of another SPDY version.
 */
export function parseFrames(buffer: Buffer): { frames: RawFrame[]; rest: Buffer } {
  const frames: RawFrame[] = [];
  let at = 0;
  while (buffer.length - at >= 8) {
    const first = buffer.readUInt32BE(at);
    const flagsLength = buffer.readUInt32BE(at + 4);
    const length = flagsLength & 0xffffff;
    if (buffer.length - at < 8 + length) break;
    const payload = buffer.subarray(at + 8, at + 8 + length);
    const control = (first & 0x80000000) !== 0;
    if (control) {
      const version = (first >>> 16) & 0x7fff;
      if (version !== VERSION) throw new Error(`unsupported SPDY version ${version}`);
      frames.push({ control, type: first & 0xffff, flags: flagsLength >>> 24, streamId: 0, payload });
    } else {
      frames.push({ control, type: 0, flags: flagsLength >>> 24, streamId: first & 0x7fffffff, payload });
    }
    at += 8 + length;
  }
  return { frames, rest: buffer.subarray(at) };
}

/** A control frame: its 8-byte header and `payload`. */
export function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_FRAME) throw new Error('SPDY frame too large');
  const head = Buffer.alloc(8);
  head.writeUInt32BE((0x8000 | VERSION) * 0x10000 + type);
  head.writeUInt32BE(flags * 0x1000000 + payload.length, 4);
  return Buffer.concat([head, payload]);
}

/** A data frame of `streamId`. */
export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(streamId & 0x7fffffff);
  head.writeUInt32BE(flags * 0x1000000 + data.length, 4);
  return Buffer.concat([head, data]);
}

/** The uncompressed name/value block of `headers`. */
export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [u32(entries.length)];
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(value, 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

/** The headers of an uncompressed name/value block; throws when it is malformed. */
export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = {};
  const need = (at: number, n: number) => {
    if (at + n > block.length) throw new Error('truncated SPDY header block');
  };
  need(0, 4);
  const count = block.readUInt32BE(0);
  let at = 4;
  for (let i = 0; i < count; i++) {
    need(at, 4);
    const nameLength = block.readUInt32BE(at);
    need(at + 4, nameLength + 4);
    const name = block.toString('utf8', at + 4, at + 4 + nameLength).toLowerCase();
    at += 4 + nameLength;
    const valueLength = block.readUInt32BE(at);
    need(at + 4, valueLength);
    const value = block.toString('utf8', at + 4, at + 4 + valueLength);
    at += 4 + valueLength;
    headers[name] = name in headers ? `${headers[name]}\0${value}` : value;
  }
  return headers;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/**
 * One direction's zlib context for header blocks: every block is compressed (or decompressed) in
 * the same stream, with the SPDY dictionary, and sync-flushed so that it stands as one frame.
 */
export class HeaderCompression {
  private readonly stream: zlib.Deflate | zlib.Inflate;
  private collected: Buffer[] = [];
  private chain: Promise<unknown> = Promise.resolve();

  constructor(kind: 'deflate' | 'inflate') {
    this.stream =
      kind === 'deflate'
        ? zlib.createDeflate({ dictionary: SPDY_DICTIONARY })
        : zlib.createInflate({ dictionary: SPDY_DICTIONARY });
    this.stream.on('data', (chunk: Buffer) => this.collected.push(chunk));
    this.stream.on('error', () => undefined);
  }

  /** The block's bytes through the context, in the order of the calls. */
  process(input: Buffer): Promise<Buffer> {
    const next = this.chain.then(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          const onError = (err: Error) => reject(err);
          this.stream.once('error', onError);
          this.collected = [];
          this.stream.write(input);
          this.stream.flush(zlib.constants.Z_SYNC_FLUSH, () => {
            this.stream.off('error', onError);
            resolve(Buffer.concat(this.collected));
            this.collected = [];
          });
        }),
    );
    this.chain = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.stream.close();
  }
}

/**
 * A SPDY stream: what the peer sends on it is read, what is written goes out as data frames, and
 * ending it sends FIN. Its headers are those of the SYN_STREAM that opened it.
 */
export class SpdyStream extends Duplex {
  /** The peer ended its side (FIN or RST). */
  remoteEnded = false;
  private replied = false;

  constructor(
    private readonly conn: SpdyConnection,
    readonly id: number,
    readonly headers: SpdyHeaders,
  ) {
    super({ allowHalfOpen: true });
  }

  /** Accepts the stream (SYN_REPLY); a stream the peer opened gets no data before it. */
  reply(headers: SpdyHeaders = {}): Promise<void> {
    if (this.replied) return Promise.resolve();
    this.replied = true;
    return this.conn.sendSynReply(this.id, headers);
  }

  /** Refuses or cancels the stream (RST_STREAM). */
  reset(status: number = RstStatus.CANCEL): void {
    void this.conn.sendReset(this.id, status);
    this.conn.forget(this.id);
    this.remoteEnded = true;
    this.push(null);
    this.destroy();
  }

  override _read(): void {
    // data is pushed as frames arrive
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.conn.sendData(this.id, chunk, false).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.conn.sendData(this.id, Buffer.alloc(0), true).then(() => {
      this.conn.localFinished(this.id);
      callback();
    }, callback);
  }

  /** Data from the peer. */
  receive(data: Buffer, fin: boolean): void {
    if (this.remoteEnded) return;
    if (data.length > 0) this.push(data);
    if (fin) {
      this.remoteEnded = true;
      this.push(null);
    }
  }
}

/**
 * A SPDY/3.1 session on an upgraded socket, the server's side or the client's: streams opened by
 * the peer are announced with 'stream' (accept them with reply()), PINGs are answered, GOAWAY and
 * RST_STREAM end what they name. Flow control as Kubernetes' SPDY peers practise it: the windows
 * are not enforced (WINDOW_UPDATE and SETTINGS frames are read and left aside). Emits 'close' once
 * the socket closed.
 */
export class SpdyConnection extends EventEmitter {
  private readonly streams = new Map<number, SpdyStream>();
  private readonly localDone = new Set<number>();
  private readonly deflate = new HeaderCompression('deflate');
  private readonly inflate = new HeaderCompression('inflate');
  private pending: Buffer = Buffer.alloc(0);
  private inbound: Promise<void> = Promise.resolve();
  private outbound: Promise<void> = Promise.resolve();
  private nextStreamId: number;
  private nextPingId: number;
  private readonly pings = new Map<number, () => void>();
  private readonly replies = new Map<number, () => void>();
  private lastPeerStreamId = 0;
  private goneAway = false;
  private closed = false;

  constructor(
    private readonly socket: Duplex,
    role: 'server' | 'client',
    head: Buffer = Buffer.alloc(0),
  ) {
    super();
    this.nextStreamId = role === 'client' ? 1 : 2;
    this.nextPingId = role === 'client' ? 1 : 2;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.teardown());
    socket.on('close', () => this.teardown());
    socket.on('end', () => this.teardown());
    if (head.length > 0) this.onData(head);
  }

  /** Whether the socket is gone. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Opens a stream (SYN_STREAM) and resolves once the peer replied. */
  async openStream(headers: SpdyHeaders): Promise<SpdyStream> {
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    const stream = this.track(id, headers);
    const replied = new Promise<void>((resolve) => this.replies.set(id, resolve));
    await this.enqueue(async () => {
      const block = await this.deflate.process(encodeHeaderBlock(headers));
      const fixed = Buffer.alloc(10);
      fixed.writeUInt32BE(id & 0x7fffffff, 0);
      fixed.writeUInt32BE(0, 4);
      fixed.writeUInt16BE(0, 8);
      return controlFrame(FrameType.SYN_STREAM, 0, Buffer.concat([fixed, block]));
    });
    await replied;
    return stream;
  }

  /** Sends a PING and resolves when it comes back. */
  async ping(): Promise<void> {
    const id = this.nextPingId;
    this.nextPingId += 2;
    const back = new Promise<void>((resolve) => this.pings.set(id, resolve));
    await this.enqueue(() => controlFrame(FrameType.PING, 0, u32(id)));
    await back;
  }

  /**
   * Ends the session as Kubernetes' SPDY server does: GOAWAY, then the socket is closed when the peer
   * closes it, or after `graceMs`.
   */
  close(graceMs = 10_000): void {
    if (this.closed) return;
    if (!this.goneAway) {
      this.goneAway = true;
      const last = this.lastPeerStreamId;
      void this.enqueue(() => controlFrame(FrameType.GOAWAY, 0, Buffer.concat([u32(last), u32(0)])));
    }
    const timer = setTimeout(() => this.destroy(), graceMs);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  }

  /** Closes the socket now. */
  destroy(): void {
    this.socket.destroy();
    this.teardown();
  }

  sendSynReply(id: number, headers: SpdyHeaders): Promise<void> {
    return this.enqueue(async () => {
      const block = await this.deflate.process(encodeHeaderBlock(headers));
      return controlFrame(FrameType.SYN_REPLY, 0, Buffer.concat([u32(id & 0x7fffffff), block]));
    });
  }

  sendReset(id: number, status: number): Promise<void> {
    return this.enqueue(() => controlFrame(FrameType.RST_STREAM, 0, Buffer.concat([u32(id), u32(status)])));
  }

  async sendData(id: number, data: Buffer, fin: boolean): Promise<void> {
    if (this.closed) throw new Error('SPDY connection closed');
    let at = 0;
    do {
      const part = data.subarray(at, at + MAX_DATA_FRAME);
      at += part.length;
      const last = at >= data.length;
      await this.enqueue(() => dataFrame(id, fin && last ? FLAG_FIN : 0, part));
    } while (at < data.length);
  }

  /** Our side of the stream ended; the stream is gone once the peer's side ended too. */
  localFinished(id: number): void {
    this.localDone.add(id);
    const s = this.streams.get(id);
    if (s?.remoteEnded) this.forget(id);
  }

  forget(id: number): void {
    this.streams.delete(id);
    this.localDone.delete(id);
  }

  private track(id: number, headers: SpdyHeaders): SpdyStream {
    const stream = new SpdyStream(this, id, headers);
    stream.on('error', () => undefined);
    this.streams.set(id, stream);
    return stream;
  }

  /** Writes frames in order, waiting for the socket to drain. */
  private enqueue(build: () => Buffer | Promise<Buffer>): Promise<void> {
    const next = this.outbound.then(async () => {
      if (this.closed) throw new Error('SPDY connection closed');
      const frame = await build();
      if (this.socket.write(frame)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.off('drain', done);
          this.socket.off('close', done);
          resolve();
        };
        this.socket.on('drain', done);
        this.socket.on('close', done);
      });
    });
    this.outbound = next.catch(() => undefined);
    return next;
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let parsed;
    try {
      parsed = parseFrames(this.pending);
    } catch {
      this.destroy();
      return;
    }
    this.pending = Buffer.from(parsed.rest);
    for (const frame of parsed.frames) {
      this.inbound = this.inbound.then(() => this.handle(frame)).catch(() => this.destroy());
    }
  }

  private async handle(frame: RawFrame): Promise<void> {
    if (this.closed) return;
    if (!frame.control) {
      const stream = this.streams.get(frame.streamId);
      if (!stream) return;
      const fin = (frame.flags & FLAG_FIN) !== 0;
      stream.receive(Buffer.from(frame.payload), fin);
      if (fin && this.localDone.has(frame.streamId)) this.forget(frame.streamId);
      return;
    }
    const p = frame.payload;
    switch (frame.type) {
      case FrameType.SYN_STREAM: {
        const id = p.readUInt32BE(0) & 0x7fffffff;
        const headers = decodeHeaderBlock(await this.inflate.process(p.subarray(10)));
        if (this.goneAway || this.streams.has(id) || id <= this.lastPeerStreamId) {
          await this.sendReset(id, this.goneAway ? RstStatus.REFUSED_STREAM : RstStatus.PROTOCOL_ERROR);
          return;
        }
        this.lastPeerStreamId = id;
        const stream = this.track(id, headers);
        if (frame.flags & FLAG_FIN) stream.receive(Buffer.alloc(0), true);
        this.emit('stream', stream);
        return;
      }
      case FrameType.SYN_REPLY: {
        const id = p.readUInt32BE(0) & 0x7fffffff;
        await this.inflate.process(p.subarray(4));
        this.replies.get(id)?.();
        this.replies.delete(id);
        if (frame.flags & FLAG_FIN) this.streams.get(id)?.receive(Buffer.alloc(0), true);
        return;
      }
      case FrameType.HEADERS:
        await this.inflate.process(p.subarray(4));
        return;
      case FrameType.RST_STREAM: {
        const id = p.readUInt32BE(0) & 0x7fffffff;
        const stream = this.streams.get(id);
        this.forget(id);
        this.replies.get(id)?.();
        this.replies.delete(id);
        if (stream) {
          stream.receive(Buffer.alloc(0), true);
          stream.destroy();
        }
        return;
      }
      case FrameType.PING: {
        const id = p.readUInt32BE(0);
        const mine = this.pings.get(id);
        if (mine) {
          this.pings.delete(id);
          mine();
        } else if (id % 2 !== this.nextPingId % 2) {
          await this.enqueue(() => controlFrame(FrameType.PING, 0, u32(id)));
        }
        return;
      }
      case FrameType.GOAWAY:
        this.goneAway = true;
        this.emit('goaway');
        return;
      default:
        // SETTINGS, WINDOW_UPDATE and unknown control frames are left aside
        return;
    }
  }

  private teardown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) {
      stream.receive(Buffer.alloc(0), true);
      stream.destroy();
    }
    this.streams.clear();
    for (const resolve of this.replies.values()) resolve();
    this.replies.clear();
    this.deflate.close();
    this.inflate.close();
    this.socket.destroy();
    this.emit('close');
  }
}
