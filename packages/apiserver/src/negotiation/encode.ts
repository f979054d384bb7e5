import { stringify as toYAML } from 'yaml';
import type { ProtobufCodec } from '@orch/api';
import { mediaTypeOf, negotiate, type Negotiated } from './negotiate';

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
      return Buffer.from(yamlText(obj));
    default:
      return Buffer.from(pretty ? JSON.stringify(obj, null, 2) + '\n' : JSON.stringify(obj) + '\n');
  }
}

/**
 * `obj` as YAML. The YAML writer recurses once for each level and indents each level further, so
 * for objects nested hundreds of levels deep (which bodies may be, up to MAX_NESTING_DEPTH) it runs
 * out of stack; JSON, which is YAML too, is written instead.
 */
function yamlText(obj: unknown): string {
  try {
    return toYAML(obj);
  } catch (e) {
    if (e instanceof RangeError) return JSON.stringify(obj) + '\n';
    throw e;
  }
}

/**
 * The body of an error Status in the representation the client asked for, as Kubernetes negotiates
 * errors: protobuf when the Accept header prefers it, JSON otherwise (and when nothing is acceptable).
 */
export function encodeStatus(
  status: object,
  accept: string | undefined,
  codec: ProtobufCodec,
): { body: Buffer; contentType: string } {
  let negotiated: Negotiated | undefined;
  try {
    negotiated = negotiate(accept, { protobuf: true, table: false });
  } catch {
    negotiated = undefined;
  }
  if (negotiated?.format === 'protobuf') {
    const contentType = mediaTypeOf(negotiated);
    return { body: Buffer.from(codec.encode(status as { apiVersion?: string; kind?: string })), contentType };
  }
  return { body: Buffer.from(JSON.stringify(status) + '\n'), contentType: 'application/json' };
}
