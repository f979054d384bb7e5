import type { WatchEvent } from '../types';
import { LineFramer, type Framer } from '../watch/Framer';

export const JSON_MEDIA_TYPE = 'application/json';
/** Canonical orch protobuf media type; the Kubernetes spelling is accepted as an alias by servers. */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.orch.protobuf';
export const KUBERNETES_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** Encodes request bodies and decodes responses and watch frames of one media type. */
export interface Codec {
  readonly mediaType: string;
  encode(obj: unknown): Buffer;
  decode(data: Buffer): unknown;
  /** A fresh framer for a watch stream in this media type. */
  newFramer(): Framer;
  /**
   * Decodes one watch frame when its encoding differs from a plain object's (protobuf wraps the
   * object in a WatchEvent message); otherwise frames are decoded with `decode`.
   */
  decodeWatchEvent?(frame: Buffer): WatchEvent<unknown>;
  /** False for objects this media type cannot represent; their bodies are then sent as JSON. */
  canEncode?(obj: unknown): boolean;
}

export class JsonCodec implements Codec {
  readonly mediaType = JSON_MEDIA_TYPE;

  encode(obj: unknown): Buffer {
    return Buffer.from(JSON.stringify(obj), 'utf8');
  }

  decode(data: Buffer): unknown {
    return JSON.parse(data.toString('utf8'));
  }

  newFramer(): Framer {
    return new LineFramer();
  }
}

/** The media type without parameters, lower-cased: "application/json; charset=utf-8" → "application/json". */
export function baseMediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The codecs a client can use. The preferred content type (from the config) is used for bodies and
 * listed first in Accept when a codec for it is registered; JSON is always the fallback.
 */
export class CodecRegistry {
  private readonly codecs = new Map<string, Codec>();
  private readonly json = new JsonCodec();

  constructor(private readonly preferred: string = JSON_MEDIA_TYPE) {
    this.register(this.json);
  }

  register(codec: Codec, ...aliases: string[]): void {
    for (const mt of [codec.mediaType, ...aliases]) {
      this.codecs.set(baseMediaType(mt), codec);
    }
  }

  /** The codec for a response's Content-Type, if one is registered. */
  forContentType(contentType: string | undefined): Codec | undefined {
    return this.codecs.get(baseMediaType(contentType) || JSON_MEDIA_TYPE);
  }

  /** The codec used to encode request bodies. */
  bodyCodec(): Codec {
    return this.codecs.get(baseMediaType(this.preferred)) ?? this.json;
  }

  /** The codec for one body: `contentType` when given and registered, else the body codec, else JSON. */
  codecForBody(obj: unknown, contentType?: string): Codec {
    const codec = (contentType ? this.forContentType(contentType) : undefined) ?? this.bodyCodec();
    return codec.canEncode && !codec.canEncode(obj) ? this.json : codec;
  }

  /** Accept header: the preferred type first when usable, then JSON. */
  accept(): string {
    const preferred = baseMediaType(this.preferred);
    if (preferred && preferred !== JSON_MEDIA_TYPE && this.codecs.has(preferred)) {
      return `${this.preferred}, ${JSON_MEDIA_TYPE}`;
    }
    return JSON_MEDIA_TYPE;
  }
}
