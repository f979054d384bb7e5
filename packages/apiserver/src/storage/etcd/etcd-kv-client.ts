import { dirname, join } from 'node:path';
import * as protobuf from 'protobufjs';
import { EtcdCallError, GrpcStatus } from './etcd-call-error';
import { GrpcConnection, type GrpcConnectionOptions } from './grpc-connection';

export { EtcdCallError } from './etcd-call-error';

/**
 * etcd's unary calls (KV Range, Txn and Compact; Lease LeaseGrant) as gRPC over HTTP/2 connections of their own
 * ({@link GrpcConnection}), with the messages of etcd's `rpc.proto` (the copy the etcd3 package ships)
 * encoded by protobufjs.
 *
 * The etcd3 client (grpc-js) costs about twice the CPU of etcd itself per call, more than the rest
 * of an apiserver write; a unary call needs none of what makes that cost (interceptors, filter
 * stacks, per-call channel bookkeeping, object conversion of every message), only a framed message
 * on a stream and the status in its trailers. Watches, which are streams, stay with the etcd3 client.
 *
 * Calls go to the members in turn. A member that fails (cannot be reached, drops the connection,
 * answers Unavailable without an etcd error) is skipped for a second, and the call is retried on
 * another member after a short back-off; an etcd error that asks for a retry (no leader, leader
 * changed, request timed out) is retried without blaming the member. Every call has one deadline
 * across its attempts.
 *
 * A write whose repetition is safe (a guarded txn that recognizes its own landed write) also gives
 * up an attempt that has no answer after `attemptTimeoutMs` and goes on on another member: writes a
 * member had passed to a leader that then died are answered by etcd only after its own request
 * timeout (about 7 s), long after a new leader took over.
 */

export interface EtcdKVClientOptions {
  /** Client URLs of the members (`http://` or `https://`). */
  endpoints: string[];
  /** Deadline of each call, across its retries. */
  timeoutMs: number;
  /** How long an attempt of a retry-safe write waits for its answer. Default 2 s. */
  attemptTimeoutMs?: number;
  /** TLS for `https://` members. */
  tls?: GrpcConnectionOptions['tls'];
}

/** int64 fields decode as numbers or as Long objects (when the `long` package is present). */
export type Int64 = number | { toNumber(): number };

export interface EtcdKeyValue {
  key: Uint8Array;
  value: Uint8Array;
  create_revision: Int64;
  mod_revision: Int64;
}

export interface EtcdResponseHeader {
  revision: Int64;
}

export interface EtcdRangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  limit?: number;
  revision?: number;
  keys_only?: boolean;
  count_only?: boolean;
}

export interface EtcdRangeResponse {
  header: EtcdResponseHeader;
  kvs: EtcdKeyValue[];
  more: boolean;
  count: Int64;
}

export interface EtcdCompare {
  key: Uint8Array;
  /** Compare.CompareResult: 0 Equal, 1 Greater, 2 Less, 3 NotEqual. */
  result: number;
  /** Compare.CompareTarget: 0 Version, 1 Create, 2 Mod, 3 Value. */
  target: number;
  create_revision?: number;
  mod_revision?: number;
}

export interface EtcdRequestOp {
  request_range?: EtcdRangeRequest;
  /** `lease`: the ID of a lease from {@link EtcdKVClient.leaseGrant} (0 or absent: none). */
  request_put?: { key: Uint8Array; value: Uint8Array; prev_kv?: boolean; lease?: Int64 };
  request_delete_range?: { key: Uint8Array; prev_kv?: boolean };
}

export interface EtcdTxnRequest {
  compare: EtcdCompare[];
  success: EtcdRequestOp[];
  failure: EtcdRequestOp[];
}

export interface EtcdResponseOp {
  response_range?: EtcdRangeResponse;
  response_put?: { prev_kv?: EtcdKeyValue };
  response_delete_range?: { prev_kvs: EtcdKeyValue[] };
}

export interface EtcdTxnResponse {
  header: EtcdResponseHeader;
  succeeded: boolean;
  responses: EtcdResponseOp[];
  /** Set by {@link EtcdKVClient.txn}: sent more than once, so an earlier attempt may have been applied. */
  resent?: boolean;
}

export const CompareTarget = { Version: 0, Create: 1, Mod: 2, Value: 3 } as const;
export const CompareResult = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;

/** An int64 field as a number (revisions and counts stay far below 2^53). */
export function int64(value: Int64 | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

const protoDir = join(dirname(require.resolve('etcd3/package.json')), 'proto');
let messages:
  | {
      RangeRequest: protobuf.Type;
      RangeResponse: protobuf.Type;
      TxnRequest: protobuf.Type;
      TxnResponse: protobuf.Type;
      CompactionRequest: protobuf.Type;
      CompactionResponse: protobuf.Type;
      LeaseGrantRequest: protobuf.Type;
      LeaseGrantResponse: protobuf.Type;
    }
  | undefined;

function types(): NonNullable<typeof messages> {
  if (!messages) {
    const root = new protobuf.Root().loadSync(join(protoDir, 'rpc.proto'), { keepCase: true });
    const t = (name: string) => root.lookupType(`etcdserverpb.${name}`);
    messages = {
      RangeRequest: t('RangeRequest'),
      RangeResponse: t('RangeResponse'),
      TxnRequest: t('TxnRequest'),
      TxnResponse: t('TxnResponse'),
      CompactionRequest: t('CompactionRequest'),
      CompactionResponse: t('CompactionResponse'),
      LeaseGrantRequest: t('LeaseGrantRequest'),
      LeaseGrantResponse: t('LeaseGrantResponse'),
    };
  }
  return messages;
}

/** How long a failed member is skipped. */
const MEMBER_BACKOFF_MS = 1000;
const MAX_ATTEMPTS = 5;
const RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 1000;
/** See {@link EtcdKVClientOptions.attemptTimeoutMs}. */
const ATTEMPT_TIMEOUT_MS = 2000;

class Member {
  private current: GrpcConnection | undefined;
  /** When this member last failed (0: never). */
  failedAt = 0;

  constructor(
    readonly url: string,
    private readonly tls: EtcdKVClientOptions['tls'],
  ) {}

  /** The live connection to the member, opened when there is none. */
  connection(): GrpcConnection {
    if (!this.current?.usable) this.current = new GrpcConnection({ url: this.url, tls: this.tls });
    return this.current;
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
  }
}

export class EtcdKVClient {
  private readonly members: Member[];
  private next = 0;
  private closed = false;

  constructor(private readonly options: EtcdKVClientOptions) {
    if (options.endpoints.length === 0) throw new Error('etcd: no endpoints');
    this.members = options.endpoints.map((url) => new Member(url, options.tls));
  }

  range(request: EtcdRangeRequest): Promise<EtcdRangeResponse> {
    const t = types();
    return this.message('KV/Range', t.RangeRequest, t.RangeResponse, request) as Promise<EtcdRangeResponse>;
  }

  /**
   * A txn. `retrySafe`: applying it twice does no harm and the caller recognizes a first attempt that
   * landed, so an attempt without an answer is given up after `attemptTimeoutMs` and tried again.
   * The answer's `resent` tells whether an earlier attempt may have been applied.
   */
  async txn(request: EtcdTxnRequest, retrySafe = false): Promise<EtcdTxnResponse> {
    const t = types();
    const { message, resent } = await this.call('KV/Txn', t.TxnRequest, t.TxnResponse, request, retrySafe);
    return Object.assign(message as EtcdTxnResponse, { resent });
  }

  async compact(revision: number, physical = false): Promise<void> {
    const t = types();
    await this.message('KV/Compact', t.CompactionRequest, t.CompactionResponse, { revision, physical });
  }

  /** A lease of `ttlSeconds` (etcd may grant a longer one): keys put with its ID go when it expires. */
  async leaseGrant(ttlSeconds: number): Promise<{ ID: Int64; TTL: Int64 }> {
    const t = types();
    const res = (await this.message('Lease/LeaseGrant', t.LeaseGrantRequest, t.LeaseGrantResponse, {
      TTL: ttlSeconds,
    })) as { ID: Int64; TTL: Int64; error?: string };
    if (res.error) throw new EtcdCallError(`etcd: ${res.error}`, undefined, false, false);
    return res;
  }

  close(): void {
    this.closed = true;
    for (const m of this.members) m.close();
  }

  /** The answer of a call (see {@link call}). */
  private async message(
    method: string,
    requestType: protobuf.Type,
    responseType: protobuf.Type,
    request: object,
  ): Promise<unknown> {
    return (await this.call(method, requestType, responseType, request)).message;
  }

  /** A call, with its attempts; `resent`: it took more than one, and an earlier one may have been applied. */
  private async call(
    method: string,
    requestType: protobuf.Type,
    responseType: protobuf.Type,
    request: object,
    retrySafe = false,
  ): Promise<{ message: unknown; resent: boolean }> {
    if (this.closed) throw new EtcdCallError('etcd client closed', undefined, false, false);
    const deadline = Date.now() + this.options.timeoutMs;
    const attemptMs = retrySafe ? (this.options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS) : Infinity;
    const body = requestType.encode(request).finish();
    const frame = Buffer.allocUnsafe(5 + body.length);
    frame[0] = 0;
    frame.writeUInt32BE(body.length, 1);
    frame.set(body, 5);
    let lastError: EtcdCallError | undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        const delay = Math.min(RETRY_DELAY_MS * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
        if (Date.now() + delay >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (this.closed) break;
      }
      const member = this.pick();
      const attemptDeadline = Math.min(deadline, Date.now() + attemptMs);
      try {
        const answer = await member.connection().unary(`/etcdserverpb.${method}`, frame, attemptDeadline);
        member.failedAt = 0;
        return { message: responseType.decode(answer), resent: attempt > 0 };
      } catch (error) {
        const unanswered =
          error instanceof EtcdCallError &&
          error.code === GrpcStatus.DeadlineExceeded &&
          attemptDeadline < deadline;
        const e = unanswered
          ? new EtcdCallError(`${member.url}: no answer within ${attemptMs} ms`, error.code, true, true)
          : error instanceof EtcdCallError
            ? error
            : new EtcdCallError(`${member.url}: ${(error as Error).message}`, undefined, true, true);
        if (e.memberFailure) member.failedAt = Date.now();
        if (!e.retryable) throw e;
        lastError = e;
      }
    }
    throw (
      lastError ?? new EtcdCallError('etcd: deadline exceeded', GrpcStatus.DeadlineExceeded, false, false)
    );
  }

  /** The next member in turn that has not failed lately; the one that failed longest ago if all did. */
  private pick(): Member {
    const now = Date.now();
    const n = this.members.length;
    for (let i = 0; i < n; i++) {
      const m = this.members[(this.next + i) % n];
      if (now - m.failedAt >= MEMBER_BACKOFF_MS) {
        this.next = (this.next + i + 1) % n;
        return m;
      }
    }
    return this.members.reduce((a, b) => (b.failedAt < a.failedAt ? b : a));
  }
}
