import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ProtobufCodec } from '@orch/api';
import { mediaTypeOf, type Negotiated } from '../negotiation/negotiate';
import { answerJSON } from '../registry/answer-json';
import { warningHeader } from './warning-header';

/**
 * One event's encoded frame, shared by every watcher it goes to: a watch cache hands the same decoded
 * object to all of them, so it is serialized once per event and format, not once per watcher.
 */
const jsonFrames = new WeakMap<object, Map<string, Buffer>>();
const protobufFrames = new WeakMap<object, Map<string, Buffer>>();

/**
 * `JSON.stringify({ type, object })` and a newline; spliced around the object's known JSON answer
 * (a store's own write, see answerJSON) instead of serializing the object again.
 */
function jsonFrame(type: string, object: unknown): Buffer {
  const answer = typeof object === 'object' && object !== null ? answerJSON(object) : undefined;
  if (!answer) return Buffer.from(JSON.stringify({ type, object }) + '\n');
  // the answer is the object's JSON and a newline
  return Buffer.concat([
    Buffer.from(`{"type":${JSON.stringify(type)},"object":`),
    answer.subarray(0, -1),
    frameEnd,
  ]);
}

const frameEnd = Buffer.from('}\n');

function frameOf(protobuf: ProtobufCodec | undefined, type: string, object: unknown): Buffer {
  const shared = typeof object === 'object' && object !== null;
  const cache = protobuf ? protobufFrames : jsonFrames;
  let byType = shared ? cache.get(object) : undefined;
  const hit = byType?.get(type);
  if (hit) return hit;
  const frame = protobuf
    ? Buffer.from(protobuf.encodeWatchEvent(type, object as { apiVersion?: string; kind?: string }))
    : jsonFrame(type, object);
  if (shared) {
    if (!byType) cache.set(object, (byType = new Map()));
    byType.set(type, frame);
  }
  return frame;
}

/**
 * How long a watch asked for without timeoutSeconds lasts, in seconds: a random time between
 * `--min-request-timeout` and twice that, as Kubernetes spreads the reconnections of its clients.
 */
export function randomWatchTimeout(minRequestTimeoutSeconds: number): number {
  return Math.floor(minRequestTimeoutSeconds * (1 + Math.random()));
}

/** Idle JSON streams get a newline this often so proxies and clients with idle timeouts keep them. */
const keepAliveMs = 30_000;

/** Streams with frames waiting for the end of this turn, flushed together by one tick. */
let pending: WatchStream[] = [];

/**
 * The frames last joined into one HTTP chunk (size line, frames, CRLF), and that chunk: watchers of
 * the same collection receive the same events in a turn, so the chunk is built once per turn, not
 * once per watcher, and each watcher's socket is handed that one buffer.
 */
let joinedFrames: Buffer[] = [];
let joined: Buffer | undefined;

function chunkOf(frames: Buffer[]): Buffer {
  if (
    joined === undefined ||
    frames.length !== joinedFrames.length ||
    frames.some((frame, i) => frame !== joinedFrames[i])
  ) {
    let length = 0;
    for (const frame of frames) length += frame.length;
    joined = Buffer.concat([Buffer.from(`${length.toString(16)}\r\n`, 'latin1'), ...frames, crlf]);
    joinedFrames = frames;
  }
  return joined;
}

const crlf = Buffer.from('\r\n', 'latin1');

/** The frames of a chunk built by {@link chunkOf}, without its framing. */
function chunkBody(chunk: Buffer): Buffer {
  return chunk.subarray(chunk.indexOf(crlf) + 2, chunk.length - 2);
}

function flushPending(): void {
  const streams = pending;
  pending = [];
  for (const stream of streams) stream.flush();
  joinedFrames = [];
  joined = undefined;
}

/**
 * One watch response: a chunked stream of events, newline-delimited JSON or length-prefixed protobuf
 * frames, ended by timeoutSeconds (or Kubernetes' default of 30–60 minutes) or by the client.
 */
export class WatchStream {
  private closed = false;
  /** Frames sent in this turn, written as one chunk at its end. */
  private frames: Buffer[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly closeHandlers: (() => void)[] = [];
  /**
   * The connection, when the response holds it and its header is written: chunks are then written
   * to it directly, whole (the response would write each as three buffers, which the TLS layer
   * copies into one per watcher). The response still ends the stream with the last chunk.
   */
  private readonly socket: Socket | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly negotiated: Negotiated,
    private readonly codec: ProtobufCodec,
    warnings: string[],
    /** When the stream ends: the request's timeoutSeconds, else {@link randomWatchTimeout}. */
    timeoutSeconds: number,
  ) {
    // the media type alone, as Kubernetes names a watch's (the as=/g=/v= of a Table or metadata-only
    // watch are not repeated), with ;stream=watch for protobuf's length-prefixed frames
    const mediaType = mediaTypeOf(negotiated);
    const contentType = negotiated.format === 'protobuf' ? `${mediaType};stream=watch` : mediaType;
    const headers: Record<string, string | string[]> = {
      'Content-Type': contentType,
      'Transfer-Encoding': 'chunked',
    };
    if (warnings.length) headers.Warning = warnings.map(warningHeader);
    res.writeHead(200, headers);
    res.flushHeaders();
    this.socket = res.socket?.writable ? res.socket : undefined;
    res.socket?.setKeepAlive(true, keepAliveMs);
    res.socket?.setNoDelay(true);
    this.timers.push(setTimeout(() => this.end(), timeoutSeconds * 1000));
    if (negotiated.format === 'json') {
      const t = setInterval(() => this.write(Buffer.from('\n')), keepAliveMs);
      this.timers.push(t);
    }
    res.on('close', () => this.finish());
  }

  send(type: string, object: unknown): void {
    if (this.closed) return;
    this.write(frameOf(this.negotiated.format === 'protobuf' ? this.codec : undefined, type, object));
  }

  private write(chunk: Buffer): void {
    if (this.closed) return;
    // The events of one turn (a group commit delivers several) leave as one HTTP chunk: one write,
    // one TLS record, instead of a chunk header, body and trailer write per event.
    if (this.frames.length === 0) {
      if (pending.length === 0) process.nextTick(flushPending);
      pending.push(this);
    }
    this.frames.push(chunk);
  }

  /** Writes the frames of this turn. */
  flush(): void {
    const frames = this.frames;
    this.frames = [];
    if (this.closed || frames.length === 0) return;
    const chunk = chunkOf(frames);
    if (this.socket) this.socket.write(chunk);
    else this.res.write(chunkBody(chunk));
  }

  /** Registers what to stop when the stream ends (either side). */
  onClose(fn: () => void): void {
    if (this.closed) fn();
    else this.closeHandlers.push(fn);
  }

  end(): void {
    if (this.closed) return;
    this.flush();
    this.res.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const fn of this.closeHandlers.splice(0)) fn();
  }
}
