/** gRPC status codes the etcd client tells apart. */
export const GrpcStatus = {
  OK: 0,
  Cancelled: 1,
  DeadlineExceeded: 4,
  Internal: 13,
  Unavailable: 14,
} as const;

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

/** The error of a gRPC status other than OK, with what it means for a retry. */
export function statusError(code: number, message: string): EtcdCallError {
  const etcdAnswered = message.includes('etcdserver:');
  const retryable =
    code === GrpcStatus.Unavailable || code === GrpcStatus.Cancelled || code === GrpcStatus.Internal;
  return new EtcdCallError(message || `gRPC status ${code}`, code, retryable, retryable && !etcdAnswered);
}
