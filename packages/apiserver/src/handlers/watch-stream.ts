import type { ServerResponse } from 'node:http';
import type { ProtobufCodec } from '@orch/api';
import type { Negotiated } from '../negotiation/negotiate';
import { warningHeader } from './warning-header';

/**
 * One event's encoded frame, shared by every watcher it goes to: a watch cache hands the same decoded
 * object to all of them, so it is serialized once per event and format, not once per watcher.
 */
const frames = new WeakMap<object, Map<string, Buffer>>();

function frameOf(protobuf: ProtobufCodec | undefined, type: string, object: unknown): Buffer {
  const key = `${protobuf ? 'pb' : 'json'}:${type}`;
  let byKey = typeof object === 'object' && object !== null ? frames.get(object) : undefined;
  const hit = byKey?.get(key);
  if (hit) return hit;
  const frame = protobuf
    ? Buffer.from(protobuf.encodeWatchEvent(type, object as { apiVersion?: string; kind?: string }))
    : Buffer.from(JSON.stringify({ type, object }) + '\n');
  if (typeof object === 'object' && object !== null) {
    if (!byKey) frames.set(object, (byKey = new Map()));
    byKey.set(key, frame);
  }
  return frame;
}

/** Idle JSON streams get a newline this often so proxies and clients with idle timeouts keep them. */
const keepAliveMs = 30_000;

/**
 * One watch response: a chunked stream of events, newline-delimited JSON or length-prefixed protobuf
 * frames, ended by timeoutSeconds (or Kubernetes' default of 30–60 minutes) or by the client.
 */
export class WatchStream {
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly closeHandlers: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly negotiated: Negotiated,
    private readonly codec: ProtobufCodec,
    warnings: string[],
    timeoutSeconds?: number,
  ) {
    const contentType =
      negotiated.format === 'protobuf' ? `${negotiated.contentType};stream=watch` : negotiated.contentType;
    const headers: Record<string, string | string[]> = {
      'Content-Type': contentType,
      'Transfer-Encoding': 'chunked',
    };
    if (warnings.length) headers.Warning = warnings.map(warningHeader);
    res.writeHead(200, headers);
    res.flushHeaders();
    res.socket?.setKeepAlive(true, keepAliveMs);
    res.socket?.setNoDelay(true);
    const seconds = timeoutSeconds ?? 1800 + Math.floor(Math.random() * 1800);
    this.timers.push(setTimeout(() => this.end(), seconds * 1000));
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
    if (!this.closed) this.res.write(chunk);
  }

  /** Registers what to stop when the stream ends (either side). */
  onClose(fn: () => void): void {
    if (this.closed) fn();
    else this.closeHandlers.push(fn);
  }

  end(): void {
    if (this.closed) return;
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
