import { baseMediaType, CodecRegistry, KUBERNETES_PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE } from './Codec';
import { ProtobufWireCodec } from './ProtobufWireCodec';

const protobufTypes = new Set([PROTOBUF_MEDIA_TYPE, KUBERNETES_PROTOBUF_MEDIA_TYPE]);

/**
 * The codecs of a client preferring `contentType`: JSON always; protobuf (under both spellings)
 * when the preferred type is protobuf, so Accept reads "<protobuf>, application/json" and kinds
 * without a message fall back to JSON.
 */
export function defaultCodecRegistry(contentType?: string): CodecRegistry {
  const registry = new CodecRegistry(contentType);
  if (protobufTypes.has(baseMediaType(contentType))) {
    registry.register(new ProtobufWireCodec(), KUBERNETES_PROTOBUF_MEDIA_TYPE);
  }
  return registry;
}
