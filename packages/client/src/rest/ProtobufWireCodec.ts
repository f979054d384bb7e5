import { allKinds, ProtobufCodec } from '@orch/api';
import type { WatchEvent } from '../types';
import { LengthPrefixedFramer, type Framer } from '../watch/Framer';
import { asWatchEvent } from '../watch/WatchStream';
import { PROTOBUF_MEDIA_TYPE, type Codec } from './Codec';

let shared: ProtobufCodec | undefined;

/** The protobuf codec of every declared kind, built once on first use. */
export function sharedProtobufCodec(): ProtobufCodec {
  shared ??= new ProtobufCodec(allKinds);
  return shared;
}

/**
 * The protobuf representation on the wire: bodies are "k8s\0" + Unknown envelope + message; watch
 * frames are a 4-byte big-endian length then a WatchEvent message whose object holds the enveloped
 * object. Objects of kinds without a message are sent as JSON (see `canEncode`).
 */
export class ProtobufWireCodec implements Codec {
  readonly mediaType = PROTOBUF_MEDIA_TYPE;

  constructor(private readonly codec: ProtobufCodec = sharedProtobufCodec()) {}

  canEncode(obj: unknown): boolean {
    const o = obj as { apiVersion?: unknown; kind?: unknown } | null;
    return (
      typeof o === 'object' &&
      o !== null &&
      typeof o.apiVersion === 'string' &&
      typeof o.kind === 'string' &&
      this.codec.supports(o.apiVersion, o.kind)
    );
  }

  encode(obj: unknown): Buffer {
    const bytes = this.codec.encode(obj as { apiVersion?: string; kind?: string });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  decode(data: Buffer): unknown {
    return this.codec.decode(data);
  }

  decodeWatchEvent(frame: Buffer): WatchEvent<unknown> {
    return asWatchEvent(this.codec.decodeWatchEvent(frame));
  }

  newFramer(): Framer {
    return new LengthPrefixedFramer();
  }
}
