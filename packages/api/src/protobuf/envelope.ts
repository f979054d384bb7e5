import type protobuf from 'protobufjs';
import { wellKnownMessages } from './proto-names';

/** The 4-byte prefix of every protobuf body: "k8s" and a zero byte. */
export const protobufPrefix: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** The media type of the protobuf representation and its Kubernetes spelling (an accepted alias). */
export const protobufMediaType = 'application/vnd.orch.protobuf';
export const protobufMediaTypeAlias = 'application/vnd.kubernetes.protobuf';

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding?: string;
  contentType?: string;
}

export class ProtobufEnvelopeError extends Error {}

/** Each root's Unknown message, looked up once: a lookup walks the root's namespaces by name. */
const unknownTypes = new WeakMap<protobuf.Root, protobuf.Type>();

function unknownType(root: protobuf.Root): protobuf.Type {
  let type = unknownTypes.get(root);
  if (!type) unknownTypes.set(root, (type = root.lookupType(wellKnownMessages.unknown)));
  return type;
}

/** Wraps a raw message in the Unknown envelope, behind the prefix. */
export function encodeEnvelope(root: protobuf.Root, envelope: Envelope): Uint8Array {
  const unknown = unknownType(root);
  const message: Record<string, unknown> = {
    typeMeta: { apiVersion: envelope.apiVersion, kind: envelope.kind },
    raw: envelope.raw,
  };
  if (envelope.contentEncoding) message.contentEncoding = envelope.contentEncoding;
  if (envelope.contentType) message.contentType = envelope.contentType;
  const body = unknown.encode(message).finish();
  const out = new Uint8Array(protobufPrefix.length + body.length);
  out.set(protobufPrefix, 0);
  out.set(body, protobufPrefix.length);
  return out;
}

/** Unwraps a body; a missing or different prefix is rejected (a changed prefix means another format). */
export function decodeEnvelope(root: protobuf.Root, bytes: Uint8Array): Envelope {
  if (bytes.length < protobufPrefix.length || protobufPrefix.some((b, i) => bytes[i] !== b)) {
    throw new ProtobufEnvelopeError(
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
  }
  const unknown = unknownType(root);
  let message: Record<string, unknown>;
  try {
    message = unknown.decode(bytes.subarray(protobufPrefix.length)) as unknown as Record<string, unknown>;
  } catch (e) {
    throw new ProtobufEnvelopeError(`unable to decode protobuf envelope: ${(e as Error).message}`);
  }
  const typeMeta = (message.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  return {
    apiVersion: typeMeta.apiVersion ?? '',
    kind: typeMeta.kind ?? '',
    raw: (message.raw as Uint8Array | undefined) ?? new Uint8Array(),
    ...(message.contentEncoding ? { contentEncoding: message.contentEncoding as string } : {}),
    ...(message.contentType ? { contentType: message.contentType as string } : {}),
  };
}
