import { stringify as toYAML } from 'yaml';
import type { ProtobufCodec } from '@orch/api';
import type { Negotiated } from './negotiate';

/** Writes a response object in the negotiated format. */
export function encodeBody(
  obj: unknown,
  negotiated: Negotiated,
  codec: ProtobufCodec,
  pretty: boolean,
): Buffer {
  switch (negotiated.format) {
    case 'protobuf':
      return Buffer.from(codec.encode(obj as { apiVersion?: string; kind?: string }));
    case 'yaml':
      return Buffer.from(toYAML(obj));
    default:
      return Buffer.from(pretty ? JSON.stringify(obj, null, 2) + '\n' : JSON.stringify(obj) + '\n');
  }
}
