import protobuf from 'protobufjs';
import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, type NameFormat, type ProtoEmbedding, type SpecialType } from '../schema/fields';
import { hasListKind, type KindDeclaration } from '../schema/kind';
import { ListMetaSchema } from '../meta/object-meta';
import { messageNameOf, wellKnownMessages } from './proto-names';

/** How one field is converted between its JSON value and its protobuf message value. */
type Codec = {
  toProto: (json: unknown) => unknown;
  fromProto: (proto: unknown) => unknown;
};

interface MessageCodec {
  type: protobuf.Type;
  /** `collection` marks repeated and map fields: empty ones are absent, as in Kubernetes' JSON. */
  fields: FieldCodec[];
  /** Groups of JSON fields that travel inside an embedded message field. */
  embedded: { proto: string; fields: FieldCodec[] }[];
}

const identity: Codec = { toProto: (v) => v, fromProto: (v) => v };

function toNumber(v: unknown): number {
  return typeof v === 'number' ? v : (v as { toNumber(): number }).toNumber();
}

const int64Codec: Codec = { toProto: (v) => v, fromProto: toNumber };

function timeCodec(micro: boolean): Codec {
  // An object's timestamps are often the same second, and so are those of objects written together:
  // the last second converted each way is kept.
  let lastText: string | undefined;
  let lastTextSeconds = 0;
  let lastSeconds = NaN;
  let lastISO = '';
  return {
    toProto: (v) => {
      const text = String(v);
      // the seconds: the text without its fraction, which only the nanoseconds read
      const whole = micro ? text.replace(/\.\d+/, '') : text;
      if (whole !== lastText) {
        lastText = whole;
        lastTextSeconds = Math.floor(Date.parse(whole) / 1000);
      }
      const seconds = lastTextSeconds;
      let nanos = 0;
      if (micro) {
        const m = /\.(\d+)/.exec(text);
        if (m) nanos = Number((m[1]! + '000000000').slice(0, 9));
      }
      return nanos ? { seconds, nanos } : { seconds };
    },
    fromProto: (p) => {
      const { seconds, nanos } = p as { seconds?: unknown; nanos?: number };
      const s = seconds === undefined ? 0 : toNumber(seconds);
      if (s !== lastSeconds) {
        lastSeconds = s;
        lastISO = new Date(s * 1000).toISOString().slice(0, 19);
      }
      const iso = lastISO;
      if (!micro) return `${iso}Z`;
      return `${iso}.${String(Math.floor((nanos ?? 0) / 1000)).padStart(6, '0')}Z`;
    },
  };
}

const intOrStringCodec: Codec = {
  toProto: (v) => (typeof v === 'number' ? { type: 0, intVal: v } : { type: 1, strVal: String(v) }),
  fromProto: (p) => {
    const m = p as { type?: unknown; intVal?: number; strVal?: string };
    return m.type !== undefined && toNumber(m.type) === 1 ? (m.strVal ?? '') : (m.intVal ?? 0);
  },
};

const quantityCodec: Codec = {
  toProto: (v) => ({ string: String(v) }),
  fromProto: (p) => (p as { string?: string }).string ?? '',
};

const bytesCodec: Codec = {
  toProto: (v) => Buffer.from(String(v), 'base64'),
  fromProto: (p) => Buffer.from(p as Uint8Array).toString('base64'),
};

const rawJSONCodec = (field: 'raw' | 'Raw'): Codec => ({
  toProto: (v) => ({ [field]: Buffer.from(JSON.stringify(v)) }),
  fromProto: (p) => {
    const raw = (p as Record<string, Uint8Array | undefined>)[field];
    // read in place: Buffer.from(raw) would copy the bytes first
    return raw && raw.length
      ? JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'))
      : {};
  },
});

const specialCodecs: Record<SpecialType, Codec> = {
  time: timeCodec(false),
  microTime: timeCodec(true),
  intOrString: intOrStringCodec,
  quantity: quantityCodec,
  bytes: bytesCodec,
  rawExtension: rawJSONCodec('raw'),
  fieldsV1: rawJSONCodec('Raw'),
};

const specialTypes: Record<SpecialType, string> = {
  time: `.${wellKnownMessages.time}`,
  microTime: `.${wellKnownMessages.microTime}`,
  intOrString: `.${wellKnownMessages.intOrString}`,
  quantity: `.${wellKnownMessages.quantity}`,
  bytes: 'bytes',
  rawExtension: `.${wellKnownMessages.rawExtension}`,
  fieldsV1: `.${wellKnownMessages.fieldsV1}`,
};

interface FieldCodec {
  json: string;
  proto: string;
  codec: Codec;
  collection?: boolean;
  /** True for a decoded value that stands for an unset field (see {@link unsetTest}). */
  unset?: (proto: unknown) => boolean;
}

/**
 * Go's generated marshalers write every field that is not a pointer, zero values included, and
 * Kubernetes reads those zeros as "not set" (its JSON omits them, its defaulters fill them). Fields
 * declared `omitZero` are read that way, and so are two kinds of fields found from their schema:
 * - times: a zero metav1.Time or MicroTime travels as an empty message (no seconds on the wire);
 * - strings whose zero value cannot be meant: an enumeration without "", a string with a default
 *   (Kubernetes' defaulters replace "") and a name or address format ("" is none; Kubernetes checks
 *   such fields only when they are not empty, and reports a required one as missing).
 */
function unsetTest(node: TSchema): ((proto: unknown) => boolean) | undefined {
  const n = node as Record<string, unknown>;
  if (n[OrchKeyword.omitZero]) return isZero;
  const special = n[OrchKeyword.special] as SpecialType | undefined;
  if (special === 'time' || special === 'microTime') {
    return (p) =>
      typeof p === 'object' &&
      p !== null &&
      !Object.prototype.hasOwnProperty.call(p, 'seconds') &&
      !Object.prototype.hasOwnProperty.call(p, 'nanos');
  }
  const format = n[OrchKeyword.format] as NameFormat | undefined;
  const neverEmpty = format !== undefined && format !== 'label-value';
  if (
    !special &&
    n.type === 'string' &&
    ((Array.isArray(n.enum) && !n.enum.includes('')) ||
      (n.default !== undefined && n.default !== '') ||
      neverEmpty)
  ) {
    return (p) => p === '';
  }
  return undefined;
}

/** A scalar's zero value as decoded: "", false, or 0 (an int64 may be decoded as a Long). */
function isZero(p: unknown): boolean {
  if (p === '' || p === false || p === 0) return true;
  return typeof p === 'object' && p !== null && 'low' in p && 'high' in p && toNumber(p) === 0;
}

/** Error raised at build time when a declaration cannot be expressed in protobuf. */
export class ProtoDeclarationError extends Error {}

/** The message name of a named struct (`io.k8s.api.core.v1.Pod` → `k8s.io.api.core.v1.Pod`). */
function structMessageName(node: TSchema): string {
  const defName = (node as Record<string, unknown>)[OrchKeyword.name] as string | undefined;
  if (!defName) throw new ProtoDeclarationError('a kind schema must be a named struct');
  return messageNameOf(defName);
}

/**
 * The protobuf types of every declared kind, built from the declarations with Kubernetes' field numbers,
 * and the converters between a kind's JSON form and its protobuf message.
 *
 * A kind's messages are defined on first use (a client process touches a few of the declared kinds;
 * defining all of them costs some 60 ms and 2 MB of heap): `types` holds what is defined so far, the
 * well-known and meta messages always; `root` defines every pending kind first.
 */
export class ProtoRegistry {
  /** The types defined so far: well-known and meta messages, and the kinds used so far. */
  readonly types = new protobuf.Root();
  private readonly codecs = new Map<string, MessageCodec>();
  private readonly kindMessages = new Map<string, string>();
  /** Messages of declared kinds not defined yet, by name: a kind's struct or a list of a kind. */
  private readonly pending = new Map<string, { struct: TSchema } | { listOf: string }>();

  constructor(declarations: readonly KindDeclaration<any>[]) {
    this.defineWellKnown();
    this.defineStruct(ListMetaSchema);
    for (const decl of declarations) {
      if (decl.jsonOnly) continue;
      const name = structMessageName(decl.schema);
      if (!this.pending.has(name)) this.pending.set(name, { struct: decl.schema });
      for (const v of decl.versions) this.kindMessages.set(`${decl.group}/${v}/${decl.kind}`, name);
      if (hasListKind(decl)) {
        const listName = `${name}List`;
        if (!this.pending.has(listName)) this.pending.set(listName, { listOf: name });
        for (const v of decl.versions)
          this.kindMessages.set(`${decl.group}/${v}/${decl.listKind ?? `${decl.kind}List`}`, listName);
      }
    }
    this.types.resolveAll();
  }

  /** Every type, the messages of all declared kinds included. */
  get root(): protobuf.Root {
    for (const name of [...this.pending.keys()]) this.definePending(name);
    return this.types;
  }

  /** Registers a meta struct that is not a kind (Status, WatchEvent, DeleteOptions, Table…) under its kind name. */
  registerMeta(group: string, version: string, kind: string, schema: TSchema): void {
    const name = this.defineStruct(schema);
    this.types.resolveAll();
    this.kindMessages.set(`${group}/${version}/${kind}`, name);
  }

  /** The message name of a group/version/kind, if it has one. */
  messageOf(group: string, version: string, kind: string): string | undefined {
    return this.kindMessages.get(`${group}/${version}/${kind}`);
  }

  /** Encodes a JSON object as the raw protobuf message (no envelope). */
  encodeMessage(messageName: string, json: unknown): Uint8Array {
    const codec = this.codec(messageName);
    return codec.type.encode(this.toProtoObject(codec, json)).finish();
  }

  /** Decodes a raw protobuf message into the JSON form. */
  decodeMessage(messageName: string, bytes: Uint8Array): Record<string, unknown> {
    const codec = this.codec(messageName);
    return this.fromProtoObject(codec, codec.type.decode(bytes)) as Record<string, unknown>;
  }

  private codec(messageName: string): MessageCodec {
    const codec = this.codecs.get(messageName) ?? this.definePending(messageName);
    if (!codec) throw new ProtoDeclarationError(`no protobuf message ${messageName}`);
    return codec;
  }

  /** Defines a declared kind's message (with the messages it refers to); undefined when none is pending. */
  private definePending(messageName: string): MessageCodec | undefined {
    const pending = this.pending.get(messageName);
    if (pending === undefined) return undefined;
    this.pending.delete(messageName);
    if ('struct' in pending) {
      this.defineStruct(pending.struct);
    } else {
      this.codec(pending.listOf);
      if (!this.codecs.has(messageName)) this.defineList(messageName, pending.listOf);
    }
    this.types.resolveAll();
    return this.codecs.get(messageName);
  }

  private toProtoObject(codec: MessageCodec, json: unknown): Record<string, unknown> {
    const src = json as Record<string, unknown>;
    const out = toProtoFields(codec.fields, src);
    for (const group of codec.embedded) {
      const inner = toProtoFields(group.fields, src);
      for (const _ in inner) {
        out[group.proto] = inner;
        break;
      }
    }
    return out;
  }

  private fromProtoObject(codec: MessageCodec, message: unknown): unknown {
    const src = message as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    fromProtoFields(codec.fields, src, out);
    for (const group of codec.embedded) {
      if (Object.prototype.hasOwnProperty.call(src, group.proto)) {
        fromProtoFields(group.fields, src[group.proto] as Record<string, unknown>, out);
      }
    }
    return out;
  }

  private defineWellKnown(): void {
    const add = (fullName: string, fields: [string, number, string, ('repeated' | 'optional')?][]): void => {
      const i = fullName.lastIndexOf('.');
      const type = new protobuf.Type(fullName.slice(i + 1));
      for (const [name, id, t, rule] of fields) type.add(new protobuf.Field(name, id, t, rule ?? 'optional'));
      this.types.define(fullName.slice(0, i)).add(type);
    };
    add(wellKnownMessages.time, [
      ['seconds', 1, 'int64'],
      ['nanos', 2, 'int32'],
    ]);
    add(wellKnownMessages.microTime, [
      ['seconds', 1, 'int64'],
      ['nanos', 2, 'int32'],
    ]);
    add(wellKnownMessages.intOrString, [
      ['type', 1, 'int64'],
      ['intVal', 2, 'int32'],
      ['strVal', 3, 'string'],
    ]);
    add(wellKnownMessages.quantity, [['string', 1, 'string']]);
    add(wellKnownMessages.rawExtension, [['raw', 1, 'bytes']]);
    add(wellKnownMessages.fieldsV1, [['Raw', 1, 'bytes']]);
    add(wellKnownMessages.typeMeta, [
      ['apiVersion', 1, 'string'],
      ['kind', 2, 'string'],
    ]);
    add(wellKnownMessages.unknown, [
      ['typeMeta', 1, `.${wellKnownMessages.typeMeta}`],
      ['raw', 2, 'bytes'],
      ['contentEncoding', 3, 'string'],
      ['contentType', 4, 'string'],
    ]);
  }

  private defineList(listName: string, itemName: string): void {
    const metaName = 'k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta';
    const i = listName.lastIndexOf('.');
    const type = new protobuf.Type(listName.slice(i + 1));
    type.add(new protobuf.Field('metadata', 1, `.${metaName}`, 'optional'));
    type.add(new protobuf.Field('items', 2, `.${itemName}`, 'repeated'));
    this.types.define(listName.slice(0, i)).add(type);
    const metaCodec = this.structCodec(metaName);
    const itemCodec = this.structCodec(itemName);
    this.codecs.set(listName, {
      type,
      embedded: [],
      fields: [
        { json: 'metadata', proto: 'metadata', codec: metaCodec },
        { json: 'items', proto: 'items', codec: listCodec(itemCodec) },
      ],
    });
  }

  /** Defines the message of a named struct (once) and returns its full name. */
  private defineStruct(node: TSchema): string {
    const n = node as Record<string, unknown>;
    const fullName = structMessageName(node);
    const defName = n[OrchKeyword.name] as string;
    if (this.codecs.has(fullName)) return fullName;
    const i = fullName.lastIndexOf('.');
    const type = new protobuf.Type(fullName.slice(i + 1));
    const codec: MessageCodec = { type, fields: [], embedded: [] };
    this.codecs.set(fullName, codec); // before the fields: structs may refer to themselves
    this.types.define(fullName.slice(0, i)).add(type);
    const props = (n.properties ?? {}) as Record<string, TSchema>;
    const used = new Map<number, string>();
    const groups = new Map<string, { embedding: ProtoEmbedding; members: [string, TSchema][] }>();
    for (const [key, child] of Object.entries(props)) {
      const embedding = (child as Record<string, unknown>)[OrchKeyword.protoEmbedded] as
        ProtoEmbedding | undefined;
      if (embedding) {
        const group = groups.get(embedding.field) ?? { embedding, members: [] };
        group.members.push([key, child]);
        groups.set(embedding.field, group);
        continue;
      }
      const id = (child as Record<string, unknown>)[OrchKeyword.proto] as number | undefined;
      if (id === undefined) {
        if (key === 'apiVersion' || key === 'kind') continue; // carried by the envelope's TypeMeta
        throw new ProtoDeclarationError(`${defName}.${key} has no protobuf field number`);
      }
      if (used.has(id)) {
        throw new ProtoDeclarationError(`${defName}: fields ${used.get(id)} and ${key} share number ${id}`);
      }
      used.set(id, key);
      const { field, codec: fieldCodec } = this.fieldOf(key, id, child, defName);
      type.add(field);
      codec.fields.push({
        json: key,
        proto: field.name,
        codec: fieldCodec,
        collection: field.repeated || field.map,
        unset: unsetTest(child),
      });
    }
    for (const { embedding, members } of groups.values()) {
      if (used.has(embedding.proto)) {
        throw new ProtoDeclarationError(
          `${defName}: ${embedding.field} and ${used.get(embedding.proto)} share number ${embedding.proto}`,
        );
      }
      used.set(embedding.proto, embedding.field);
      codec.embedded.push({
        proto: embedding.field,
        fields: this.defineEmbedded(embedding, members, defName),
      });
      type.add(new protobuf.Field(embedding.field, embedding.proto, `.${embedding.message}`, 'optional'));
    }
    return fullName;
  }

  /**
   * The message of a Go struct inlined into its parent: defined from the first parent that embeds it
   * (unless declared as a struct of its own); each parent converts its own fields through it.
   */
  private defineEmbedded(
    embedding: ProtoEmbedding,
    members: [string, TSchema][],
    owner: string,
  ): FieldCodec[] {
    const fields: FieldCodec[] = [];
    const exists = this.codecs.has(embedding.message);
    const i = embedding.message.lastIndexOf('.');
    const type = exists ? undefined : new protobuf.Type(embedding.message.slice(i + 1));
    for (const [key, child] of members) {
      const id = (child as Record<string, unknown>)[OrchKeyword.proto] as number | undefined;
      if (id === undefined) throw new ProtoDeclarationError(`${owner}.${key} has no protobuf field number`);
      const { field, codec } = this.fieldOf(key, id, child, embedding.message);
      type?.add(field);
      fields.push({
        json: key,
        proto: field.name,
        codec,
        collection: field.repeated || field.map,
        unset: unsetTest(child),
      });
    }
    if (type) {
      this.types.define(embedding.message.slice(0, i)).add(type);
      this.codecs.set(embedding.message, { type, fields, embedded: [] });
    }
    return fields;
  }

  private structCodec(fullName: string): Codec {
    // looked up at the first value, when the message is surely defined, and kept
    let codec: MessageCodec | undefined;
    return {
      toProto: (v) => this.toProtoObject((codec ??= this.codec(fullName)), v),
      fromProto: (p) => this.fromProtoObject((codec ??= this.codec(fullName)), p),
    };
  }

  /** The protobuf field and codec of one struct field. */
  private fieldOf(
    key: string,
    id: number,
    node: TSchema,
    owner: string,
  ): { field: protobuf.Field | protobuf.MapField; codec: Codec } {
    const n = node as Record<string, unknown>;
    if (n.type === 'array') {
      const item = this.valueType(n.items as TSchema, `${owner}.${key}[]`);
      return { field: new protobuf.Field(key, id, item.type, 'repeated'), codec: listCodec(item.codec) };
    }
    const special = n[OrchKeyword.special] as SpecialType | undefined;
    if (!special && n.type === 'object' && n.patternProperties) {
      const valueNode = Object.values(n.patternProperties as Record<string, TSchema>)[0]!;
      const wrapper = n[OrchKeyword.protoWrapper] as string | undefined;
      if (wrapper) {
        const wrapperType = this.defineWrapper(wrapper, valueNode, `${owner}.${key}`);
        return {
          field: new protobuf.MapField(key, id, 'string', wrapperType.type),
          codec: mapCodec(wrapperType.codec),
        };
      }
      const value = this.valueType(valueNode, `${owner}.${key}{}`);
      return { field: new protobuf.MapField(key, id, 'string', value.type), codec: mapCodec(value.codec) };
    }
    const value = this.valueType(node, `${owner}.${key}`);
    return { field: new protobuf.Field(key, id, value.type, 'optional'), codec: value.codec };
  }

  /** map<string, []string> values travel wrapped in a message with one repeated field `items`. */
  private defineWrapper(fullName: string, listNode: TSchema, where: string): { type: string; codec: Codec } {
    const item = this.valueType((listNode as Record<string, unknown>).items as TSchema, where);
    if (!this.codecs.has(fullName)) {
      const i = fullName.lastIndexOf('.');
      const type = new protobuf.Type(fullName.slice(i + 1));
      type.add(new protobuf.Field('items', 1, item.type, 'repeated'));
      this.types.define(fullName.slice(0, i)).add(type);
      this.codecs.set(fullName, {
        type,
        fields: [{ json: 'items', proto: 'items', codec: listCodec(item.codec) }],
        embedded: [],
      });
    }
    return {
      type: `.${fullName}`,
      codec: {
        toProto: (v) => ({ items: (v as unknown[]).map(item.codec.toProto) }),
        fromProto: (p) => ((p as { items?: unknown[] }).items ?? []).map(item.codec.fromProto),
      },
    };
  }

  /** The protobuf type name and codec of a value (a struct, a special value or a scalar). */
  private valueType(node: TSchema, where: string): { type: string; codec: Codec } {
    const n = node as Record<string, unknown>;
    if (n[OrchKeyword.name] !== undefined) {
      const name = this.defineStruct(node);
      return { type: `.${name}`, codec: this.structCodec(name) };
    }
    const special = n[OrchKeyword.special] as SpecialType | undefined;
    if (special) return { type: specialTypes[special], codec: specialCodecs[special] };
    switch (n.type) {
      case 'string':
        return { type: 'string', codec: identity };
      case 'boolean':
        return { type: 'bool', codec: identity };
      case 'integer': {
        const t = (n[OrchKeyword.protoType] as string | undefined) ?? 'int32';
        return { type: t, codec: t === 'int64' ? int64Codec : identity };
      }
      case 'number':
        return { type: 'double', codec: identity };
      default:
        if (n.enum) return { type: 'string', codec: identity };
        throw new ProtoDeclarationError(`${where}: no protobuf representation for ${JSON.stringify(n)}`);
    }
  }
}

function toProtoFields(fields: readonly FieldCodec[], src: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = src[f.json];
    if (v !== undefined && v !== null) out[f.proto] = f.codec.toProto(v);
  }
  return out;
}

function fromProtoFields(
  fields: readonly FieldCodec[],
  src: Record<string, unknown>,
  out: Record<string, unknown>,
): void {
  for (const f of fields) {
    if (!Object.prototype.hasOwnProperty.call(src, f.proto)) continue;
    const v = src[f.proto];
    if (f.collection && isEmpty(v)) continue;
    if (f.unset?.(v)) continue;
    out[f.json] = f.codec.fromProto(v);
  }
}

function isEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v as Record<string, unknown>) return false;
  return true;
}

function listCodec(item: Codec): Codec {
  return {
    toProto: (v) => (v as unknown[]).map(item.toProto),
    fromProto: (p) => (p as unknown[]).map(item.fromProto),
  };
}

function mapCodec(value: Codec): Codec {
  return {
    toProto: (v) => {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = value.toProto(x);
      return out;
    },
    fromProto: (p) => {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(p as Record<string, unknown>)) out[k] = value.fromProto(x);
      return out;
    },
  };
}
