import {
  connect,
  constants as h2,
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type SecureClientSessionOptions,
} from 'node:http2';
import { dirname, join } from 'node:path';
import * as protobuf from 'protobufjs';

/**
 * etcd's unary KV calls (Range, Txn, Compact) as gRPC over Node's own HTTP/2 client, with the
 * messages of etcd's `rpc.proto` (the copy the etcd3 package ships) encoded by protobufjs.
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
 */

export interface EtcdKVClientOptions {
  /** Client URLs of the members (`http://` or `https://`). */
  endpoints: string[];
  /** Deadline of each call, across its retries. */
  timeoutMs: number;
  /** TLS for `https://` members. */
  tls?: Pick<SecureClientSessionOptions, 'ca' | 'cert' | 'key'>;
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
  request_put?: { key: Uint8Array; value: Uint8Array; prev_kv?: boolean };
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
}

export const CompareTarget = { Version: 0, Create: 1, Mod: 2, Value: 3 } as const;
export const CompareResult = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;

/** An int64 field as a number (revisions and counts stay far below 2^53). */
export function int64(value: Int64 | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

/** gRPC status codes the client tells apart. */
const Status = { OK: 0, Cancelled: 1, DeadlineExceeded: 4, Internal: 13, Unavailable: 14 } as const;

/**
 * A failed etcd call: `code` is the gRPC status (undefined when the stream broke before one came),
 * the message etcd's own (`etcdserver: …`) when etcd answered with an error.
 */
export class EtcdCallError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
    /** Worth trying again, on another member when `memberFailure`. */
    readonly retryable: boolean,
    /** The member itself failed (unreachable, connection lost), not a refusal it answered. */
    readonly memberFailure: boolean,
  ) {
    super(message);
    this.name = 'EtcdCallError';
  }
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
    };
  }
  return messages;
}

/** How long a failed member is skipped. */
const MEMBER_BACKOFF_MS = 1000;
const MAX_ATTEMPTS = 5;
const RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 1000;
/** The HTTP/2 flow-control window of each connection and stream: large lists arrive without stalls. */
const WINDOW = 16 << 20;

class Member {
  private session: ClientHttp2Session | undefined;
  /** When this member last failed (0: never). */
  failedAt = 0;

  constructor(
    readonly url: string,
    private readonly tls: EtcdKVClientOptions['tls'],
  ) {}

  /** The live connection to the member, opened when there is none. */
  connection(): ClientHttp2Session {
    const existing = this.session;
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = connect(this.url, { ...this.tls, settings: { initialWindowSize: WINDOW } });
    const drop = () => {
      if (this.session === session) this.session = undefined;
    };
    session.on('error', drop);
    session.on('close', drop);
    session.on('goaway', drop);
    session.once('connect', () => session.setLocalWindowSize(WINDOW));
    // no keep-alive of its own: an idle connection must not hold the process open
    session.unref();
    this.session = session;
    return session;
  }

  close(): void {
    this.session?.close();
    this.session = undefined;
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
    return this.call('Range', t.RangeRequest, t.RangeResponse, request) as Promise<EtcdRangeResponse>;
  }

  txn(request: EtcdTxnRequest): Promise<EtcdTxnResponse> {
    const t = types();
    return this.call('Txn', t.TxnRequest, t.TxnResponse, request) as Promise<EtcdTxnResponse>;
  }

  async compact(revision: number, physical = false): Promise<void> {
    const t = types();
    await this.call('Compact', t.CompactionRequest, t.CompactionResponse, { revision, physical });
  }

  close(): void {
    this.closed = true;
    for (const m of this.members) m.close();
  }

  private async call(
    method: string,
    requestType: protobuf.Type,
    responseType: protobuf.Type,
    request: object,
  ): Promise<unknown> {
    if (this.closed) throw new EtcdCallError('etcd client closed', undefined, false, false);
    const deadline = Date.now() + this.options.timeoutMs;
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
      try {
        const answer = await unary(member.connection(), `/etcdserverpb.KV/${method}`, frame, deadline);
        member.failedAt = 0;
        return responseType.decode(answer);
      } catch (error) {
        const e =
          error instanceof EtcdCallError
            ? error
            : new EtcdCallError(`${member.url}: ${(error as Error).message}`, undefined, true, true);
        if (e.memberFailure) member.failedAt = Date.now();
        if (!e.retryable) throw e;
        lastError = e;
      }
    }
    throw lastError ?? new EtcdCallError('etcd: deadline exceeded', Status.DeadlineExceeded, false, false);
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

/**
 * One gRPC unary call on a stream of `session`: the framed request out, the framed answer's message
 * back, or an {@link EtcdCallError} from the status in the trailers (or in the headers of a
 * trailers-only answer), a broken stream, or the deadline.
 */
function unary(session: ClientHttp2Session, path: string, frame: Buffer, deadline: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    let stream: ClientHttp2Stream;
    try {
      stream = session.request(
        {
          [h2.HTTP2_HEADER_METHOD]: 'POST',
          [h2.HTTP2_HEADER_PATH]: path,
          [h2.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
          [h2.HTTP2_HEADER_TE]: 'trailers',
          'grpc-timeout': `${Math.max(1, remaining)}m`,
        },
        { endStream: false },
      );
    } catch (error) {
      reject(new EtcdCallError((error as Error).message, undefined, true, true));
      return;
    }
    const chunks: Buffer[] = [];
    let httpStatus = 0;
    let grpcStatus: number | undefined;
    let grpcMessage = '';
    let settled = false;
    const timer = setTimeout(() => {
      finish(new EtcdCallError('etcd: deadline exceeded', Status.DeadlineExceeded, false, false));
      stream.close(h2.NGHTTP2_CANCEL);
    }, remaining);
    const finish = (error?: EtcdCallError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) return reject(error);
      const answer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (answer.length < 5 || answer[0] !== 0) {
        return reject(new EtcdCallError('etcd: malformed answer', Status.Internal, false, false));
      }
      resolve(answer.subarray(5, 5 + answer.readUInt32BE(1)));
    };
    const readStatus = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] === undefined) return;
      grpcStatus = Number(headers['grpc-status']);
      grpcMessage = decodeURIComponent(String(headers['grpc-message'] ?? ''));
    };
    stream.on('response', (headers) => {
      httpStatus = Number(headers[h2.HTTP2_HEADER_STATUS]);
      readStatus(headers);
    });
    stream.on('trailers', readStatus);
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', (error: Error) => finish(new EtcdCallError(error.message, undefined, true, true)));
    stream.on('close', () => {
      if (grpcStatus === undefined) {
        const why = httpStatus && httpStatus !== 200 ? `HTTP status ${httpStatus}` : 'stream closed';
        return finish(new EtcdCallError(`etcd: ${why} without a gRPC status`, undefined, true, true));
      }
      if (grpcStatus === Status.OK) return finish();
      finish(statusError(grpcStatus, grpcMessage));
    });
    stream.end(frame);
  });
}

/** The error of a gRPC status other than OK, with what it means for a retry. */
function statusError(code: number, message: string): EtcdCallError {
  const etcdAnswered = message.includes('etcdserver:');
  const retryable = code === Status.Unavailable || code === Status.Cancelled || code === Status.Internal;
  return new EtcdCallError(message || `gRPC status ${code}`, code, retryable, retryable && !etcdAnswered);
}
