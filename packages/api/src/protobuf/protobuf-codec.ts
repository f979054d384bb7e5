import type { TSchema } from '@sinclair/typebox';
import type protobuf from 'protobufjs';
import { splitAPIVersion } from '../restmapping/rest-mapper';
import type { KindDeclaration } from '../schema/kind';
import { DeleteOptionsSchema, StatusSchema, WatchEventSchema } from '../meta/status';
import { decodeEnvelope, encodeEnvelope, ProtobufEnvelopeError } from './envelope';
import { PartialObjectMetadataListSchema, PartialObjectMetadataSchema } from './partial-object-metadata';
import { ProtoRegistry } from './proto-registry';

/**
 * Kinds of the meta groups a client may ask for a response as in protobuf
 * (`Accept: application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`). Tables
 * are not among them: Kubernetes serves them as JSON or YAML only, and has no protobuf message for them.
 */
const asKinds: [string, TSchema][] = [
  ['PartialObjectMetadata', PartialObjectMetadataSchema],
  ['PartialObjectMetadataList', PartialObjectMetadataListSchema],
];

/** Kinds of the meta group every group/version serves, with the structs that carry them. */
const metaKinds: [string, TSchema][] = [
  ['Status', StatusSchema],
  ['DeleteOptions', DeleteOptionsSchema],
  ['WatchEvent', WatchEventSchema],
];

/**
 * Encodes and decodes objects in the protobuf representation of doc 1: the "k8s\0" prefix, the Unknown
 * envelope with the object's TypeMeta, and the object's message with Kubernetes' field numbers.
 */
export class ProtobufCodec {
  readonly registry: ProtoRegistry;

  constructor(declarations: readonly KindDeclaration<any>[]) {
    this.registry = new ProtoRegistry(declarations);
    const groupVersions = new Set<string>(['/v1']);
    for (const d of declarations) for (const v of d.versions) groupVersions.add(`${d.group}/${v}`);
    for (const gv of groupVersions) {
      const [group, version] = gv.split('/') as [string, string];
      for (const [kind, schema] of metaKinds) this.registry.registerMeta(group, version, kind, schema);
    }
    for (const gv of ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1', 'meta.orch.io/v1', 'meta.orch.io/v1beta1']) {
      const [group, version] = splitAPIVersion(gv);
      for (const [kind, schema] of asKinds) this.registry.registerMeta(group, version, kind, schema);
    }
  }

  /** True when the kind has a protobuf message. */
  supports(apiVersion: string, kind: string): boolean {
    const [group, version] = splitAPIVersion(apiVersion);
    return this.registry.messageOf(group, version, kind) !== undefined;
  }

  /** The raw message of an object (no prefix, no envelope). */
  encodeRaw(obj: { apiVersion?: string; kind?: string }): Uint8Array {
    return this.registry.encodeMessage(this.messageFor(obj.apiVersion ?? '', obj.kind ?? ''), obj);
  }

  /** The full protobuf body of an object: prefix, envelope, message. */
  encode(obj: { apiVersion?: string; kind?: string }): Uint8Array {
    return encodeEnvelope(this.registry.types, {
      apiVersion: obj.apiVersion ?? '',
      kind: obj.kind ?? '',
      raw: this.encodeRaw(obj),
    });
  }

  /** Decodes a protobuf body into the JSON form, with apiVersion and kind from the envelope. */
  decode(bytes: Uint8Array): Record<string, unknown> {
    const env = decodeEnvelope(this.registry.types, bytes);
    if (env.contentEncoding)
      throw new ProtobufEnvelopeError(`unsupported content encoding ${env.contentEncoding}`);
    const message = this.messageFor(env.apiVersion, env.kind);
    let body: Record<string, unknown>;
    try {
      body = this.registry.decodeMessage(message, env.raw);
    } catch (e) {
      throw new ProtobufEnvelopeError(`unable to decode ${env.kind}: ${(e as Error).message}`);
    }
    return { apiVersion: env.apiVersion, kind: env.kind, ...body };
  }

  /**
   * One frame of a protobuf watch stream: a 4-byte big-endian length, then the raw WatchEvent message
   * whose object is the full protobuf body of the object.
   */
  encodeWatchEvent(type: string, obj: { apiVersion?: string; kind?: string }): Uint8Array {
    const event = this.watchEventType()
      .encode({ type, object: { raw: this.encode(obj) } })
      .finish();
    const frame = new Uint8Array(4 + event.length);
    new DataView(frame.buffer).setUint32(0, event.length, false);
    frame.set(event, 4);
    return frame;
  }

  private watchEvent: protobuf.Type | undefined;

  /** The WatchEvent message, looked up once. */
  private watchEventType(): protobuf.Type {
    return (this.watchEvent ??= this.registry.types.lookupType(
      'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent',
    ));
  }

  /** Decodes the message of one watch frame (without its length prefix). */
  decodeWatchEvent(message: Uint8Array): { type: string; object: Record<string, unknown> } {
    const decoded = this.watchEventType().decode(message) as unknown as {
      type?: string;
      object?: { raw?: Uint8Array };
    };
    return { type: decoded.type ?? '', object: this.decode(decoded.object?.raw ?? new Uint8Array()) };
  }

  private messageFor(apiVersion: string, kind: string): string {
    const [group, version] = splitAPIVersion(apiVersion);
    const message = this.registry.messageOf(group, version, kind);
    if (!message)
      throw new ProtobufEnvelopeError(`no protobuf representation for ${apiVersion}, Kind=${kind}`);
    return message;
  }
}
