import type { KV, ListResult, WatchEvent } from '../storage';
import { StorageError, type StorageErrorCode } from '../storage-error';

/**
 * How storage calls, results, watch events and errors cross between the apiserver's main thread and
 * the storage thread. Values travel packed: the bytes of every value of one message in one fresh
 * buffer that is moved (transferred), not copied, so a message costs one copy of its values
 * whatever their number. (A Buffer posted as it is would clone the whole pool slab it lives in.)
 */

/** The storage methods a request may name; `watch`, `unwatch` and `close` have their own shapes. */
export const CALL_OPS = [
  'get',
  'list',
  'create',
  'update',
  'delete',
  'compact',
  'currentRevision',
  'compactedRevision',
] as const;

export type CallOp = (typeof CALL_OPS)[number];

export type ToThread =
  | { id: number; op: CallOp; args: unknown[] }
  | { id: number; op: 'watch'; watch: number; prefix: string; fromRevision: number; bookmarks: boolean }
  | { op: 'unwatch'; watch: number }
  | { id: number; op: 'close' };

export type FromThread =
  | { id: number; ok: true; result: Packed }
  | { id: number; ok: false; error: WireError }
  | { watch: number; events: PackedEvents }
  | { watch: number; bookmark: number }
  | { watch: number; error: WireError };

export interface PackedValues {
  data: Uint8Array;
  /** End offset in `data` of each value, in order. */
  ends: number[];
}

/**
 * KVs in three parts, whatever their number: the keys joined, four numbers per KV (key length, end
 * of its value in `data`, modRevision, createRevision), and the values' bytes.
 */
export interface PackedKVs {
  keys: string;
  numbers: Float64Array;
  data: Uint8Array;
}

/** A result: plain data, or a KV or a list whose KVs are packed. */
export type Packed =
  | { kind: 'plain'; value: unknown }
  | { kind: 'kv'; kvs: PackedKVs }
  | { kind: 'list'; result: Omit<ListResult, 'items'>; kvs: PackedKVs };

export interface PackedEvents {
  heads: (Omit<WatchEvent, 'value' | 'prevValue'> & { prev: boolean })[];
  /** Each event's value, then its previous value when `prev`. */
  values: PackedValues;
}

export interface WireError {
  message: string;
  code?: StorageErrorCode;
  key?: string;
  revision?: number;
  current?: PackedKVs;
}

function packValues(values: Uint8Array[]): PackedValues {
  let size = 0;
  for (const v of values) size += v.length;
  const data = new Uint8Array(size);
  const ends: number[] = [];
  let at = 0;
  for (const v of values) {
    data.set(v, at);
    at += v.length;
    ends.push(at);
  }
  return { data, ends };
}

function unpackValues({ data, ends }: PackedValues): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (const end of ends) {
    out.push(Buffer.from(data.buffer, data.byteOffset + start, end - start));
    start = end;
  }
  return out;
}

function packKVs(kvs: KV[]): PackedKVs {
  const numbers = new Float64Array(kvs.length * 4);
  const { data, ends } = packValues(kvs.map((kv) => kv.value));
  let keys = '';
  kvs.forEach((kv, i) => {
    keys += kv.key;
    numbers.set([kv.key.length, ends[i]!, kv.modRevision, kv.createRevision], i * 4);
  });
  return { keys, numbers, data };
}

function unpackKVs({ keys, numbers, data }: PackedKVs): KV[] {
  const kvs: KV[] = [];
  let keyAt = 0;
  let valueAt = 0;
  for (let i = 0; i < numbers.length; i += 4) {
    const keyEnd = keyAt + numbers[i]!;
    const valueEnd = numbers[i + 1]!;
    kvs.push({
      key: keys.slice(keyAt, keyEnd),
      value: Buffer.from(data.buffer, data.byteOffset + valueAt, valueEnd - valueAt),
      modRevision: numbers[i + 2]!,
      createRevision: numbers[i + 3]!,
    });
    keyAt = keyEnd;
    valueAt = valueEnd;
  }
  return kvs;
}

/** Adds the buffers a message moves to the other thread to `out` (a posting's transfer list). */
function addTransfers(message: FromThread | ToThread, out: ArrayBuffer[]): void {
  const add = (packed: PackedKVs | undefined) => {
    if (packed) out.push(packed.data.buffer as ArrayBuffer, packed.numbers.buffer as ArrayBuffer);
  };
  if ('result' in message && message.result.kind !== 'plain') add(message.result.kvs);
  if ('events' in message) out.push(message.events.values.data.buffer as ArrayBuffer);
  if ('error' in message) add(message.error.current);
  if ('args' in message)
    for (const a of message.args) if (a instanceof Uint8Array) out.push(a.buffer as ArrayBuffer);
}

/**
 * Messages to the other thread, posted together once per turn of the event loop: a posting wakes
 * the other thread, and under load many calls start (or finish) in one turn.
 */
export class Outbox<M extends FromThread | ToThread> {
  private queue: M[] = [];
  private transfers: ArrayBuffer[] = [];

  constructor(private readonly post: (batch: M[], transfer: ArrayBuffer[]) => void) {}

  send(message: M): void {
    if (this.queue.length === 0) queueMicrotask(() => this.flush());
    this.queue.push(message);
    addTransfers(message, this.transfers);
  }

  flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue;
    const transfers = this.transfers;
    this.queue = [];
    this.transfers = [];
    this.post(batch, transfers);
  }
}

function isKV(value: unknown): value is KV {
  return (
    typeof value === 'object' &&
    value !== null &&
    Buffer.isBuffer((value as KV).value) &&
    'modRevision' in value
  );
}

function isList(value: unknown): value is ListResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as ListResult).items);
}

export function packResult(value: unknown): Packed {
  if (isKV(value)) return { kind: 'kv', kvs: packKVs([value]) };
  if (isList(value)) {
    const { items, ...result } = value;
    return { kind: 'list', result, kvs: packKVs(items) };
  }
  return { kind: 'plain', value };
}

export function unpackResult(packed: Packed): unknown {
  switch (packed.kind) {
    case 'plain':
      return packed.value;
    case 'kv':
      return unpackKVs(packed.kvs)[0];
    case 'list':
      return { ...packed.result, items: unpackKVs(packed.kvs) };
  }
}

export function packEvents(events: WatchEvent[]): PackedEvents {
  const values: Uint8Array[] = [];
  const heads = events.map(({ value, prevValue, ...rest }) => {
    values.push(value);
    if (prevValue) values.push(prevValue);
    return { ...rest, prev: prevValue !== undefined };
  });
  return { heads, values: packValues(values) };
}

export function unpackEvents(packed: PackedEvents): WatchEvent[] {
  const values = unpackValues(packed.values);
  let i = 0;
  return packed.heads.map(({ prev, ...rest }) => {
    const event: WatchEvent = { ...rest, value: values[i++] };
    if (prev) event.prevValue = values[i++];
    return event;
  });
}

export function packError(error: unknown): WireError {
  if (error instanceof StorageError) {
    const { key, revision, current } = error.details;
    return {
      message: error.message,
      code: error.code,
      key,
      revision,
      current: current && packKVs([current]),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The error as the calling thread sees it: a StorageError again when it was one. */
export function unpackError(wire: WireError): Error {
  if (!wire.code) return new Error(wire.message);
  const current = wire.current && unpackKVs(wire.current)[0];
  return new StorageError(wire.code, wire.message, { key: wire.key, revision: wire.revision, current });
}
