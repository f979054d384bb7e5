import { protobufPrefix, type ProtobufCodec } from '@orch/api';

/** A list answer: items are whole objects (with apiVersion and kind), shared and read-only. */
export interface ListBody {
  apiVersion: string;
  kind: string;
  metadata: object;
  items: readonly { apiVersion?: string; kind?: string }[];
}

/**
 * Encodings of list items, kept with the item object. A list's items are usually the watch cache's
 * shared decoded objects, so an item is serialized once per format and then spliced into every list
 * that serves it.
 */
const jsonItems = new WeakMap<object, Buffer>();
/** An item's protobuf message framed as a list's repeated field 2: tag, varint length, message. */
const protobufItems = new WeakMap<object, Buffer>();

/**
 * An item's JSON inside a list, after the comma that separates it from the item before: without
 * apiVersion and kind, as Kubernetes' typed lists serve items. One part per item instead of two.
 */
function itemJSON(item: { apiVersion?: string; kind?: string }): Buffer {
  let bytes = jsonItems.get(item);
  if (!bytes) {
    const { apiVersion: _a, kind: _k, ...rest } = item;
    bytes = Buffer.from(`,${JSON.stringify(rest)}`);
    jsonItems.set(item, bytes);
  }
  return bytes;
}

const jsonEnd = Buffer.from(']}\n');

/**
 * The JSON body of a list (not indented) in order, as parts to write one after another: the bytes
 * `JSON.stringify` gives for the list with its items stripped of apiVersion and kind, and a newline,
 * spliced from each item's cached encoding.
 */
export function jsonListParts(list: ListBody): Buffer[] {
  const { items, ...head } = list;
  const start = JSON.stringify(head);
  const parts: Buffer[] = [Buffer.from(`${start.slice(0, -1)},"items":[`)];
  for (let i = 0; i < items.length; i++) {
    const bytes = itemJSON(items[i]!);
    parts.push(i ? bytes : bytes.subarray(1));
  }
  parts.push(jsonEnd);
  return parts;
}

/** {@link jsonListParts} as one buffer. */
export function encodeJSONList(list: ListBody): Buffer {
  return Buffer.concat(jsonListParts(list));
}

/** Protobuf's varint encoding of a length. */
function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** Field 2 (`items`), length-delimited: every Kubernetes list message keeps its items there. */
const itemsTag = Buffer.from([(2 << 3) | 2]);

/** A length-delimited field: tag, varint length, bytes. */
function field(number: number, bytes: Uint8Array): Buffer[] {
  return [Buffer.from([(number << 3) | 2]), varint(bytes.length), Buffer.from(bytes)];
}

/**
 * The protobuf body of a list in order, as parts to write one after another: the list message
 * without items (its ListMeta, field 1), then each item's cached message as a repeated field 2, in
 * the Unknown envelope (typeMeta, raw) behind the `k8s\0` prefix — the bytes the codec gives for the
 * whole list.
 */
export function protobufListParts(list: ListBody, codec: ProtobufCodec): Buffer[] {
  const { items, ...head } = list;
  const raw: Buffer[] = [Buffer.from(codec.encodeRaw(head))];
  let rawLength = raw[0]!.length;
  for (const item of items) {
    let framed = protobufItems.get(item);
    if (!framed) {
      const bytes = codec.encodeRaw(item);
      framed = Buffer.concat([itemsTag, varint(bytes.length), bytes]);
      protobufItems.set(item, framed);
    }
    raw.push(framed);
    rawLength += framed.length;
  }
  const typeMeta = Buffer.concat([
    ...field(1, Buffer.from(list.apiVersion)),
    ...field(2, Buffer.from(list.kind)),
  ]);
  return [
    Buffer.from(protobufPrefix),
    ...field(1, typeMeta),
    Buffer.from([(2 << 3) | 2]),
    varint(rawLength),
    ...raw,
  ];
}

/** {@link protobufListParts} as one buffer. */
export function encodeProtobufList(list: ListBody, codec: ProtobufCodec): Buffer {
  return Buffer.concat(protobufListParts(list, codec));
}
