import type { Status, StatusCause } from '@orch/api';
import { StorageError } from '../storage/storage-error';

/** Kubernetes' StatusReason values used by the API server. */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout'
  | 'ServerTimeout'
  | 'ServiceUnavailable';

/** A failure answered with a Kubernetes Status object; every API error is one of these. */
export class StatusError extends Error {
  constructor(
    readonly status: Status & { code: number },
    readonly headers: Record<string, string> = {},
  ) {
    super(status.message);
  }

  get code(): number {
    return this.status.code;
  }
}

interface Qualified {
  group: string;
  /** The resource (plural) or kind the error is about, as Kubernetes puts in details.kind. */
  resource: string;
}

function qualified(q: Qualified): string {
  return q.group ? `${q.resource}.${q.group}` : q.resource;
}

/** The reasons of the codes another server (a node agent) may answer with; other codes carry none. */
const reasonsByCode: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

function make(
  code: number,
  reason: StatusReason | '',
  message: string,
  details?: Status['details'],
  headers?: Record<string, string>,
): StatusError {
  const status: Status & { code: number } = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
  if (details) status.details = details;
  return new StatusError(status, headers);
}

export const statusErrors = {
  notFound: (q: Qualified, name: string): StatusError =>
    make(404, 'NotFound', `${qualified(q)} "${name}" not found`, { name, group: q.group, kind: q.resource }),
  alreadyExists: (q: Qualified, name: string): StatusError =>
    make(409, 'AlreadyExists', `${qualified(q)} "${name}" already exists`, {
      name,
      group: q.group,
      kind: q.resource,
    }),
  conflict: (q: Qualified, name: string, why: string): StatusError =>
    make(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(q)} "${name}": ${why}`, {
      name,
      group: q.group,
      kind: q.resource,
    }),
  /** An apply conflict: one cause per conflicting field, naming its manager. */
  applyConflict: (message: string, causes: StatusCause[]): StatusError =>
    make(409, 'Conflict', message, { causes }),
  invalid: (kind: string, group: string, name: string, message: string, causes: StatusCause[]): StatusError =>
    make(422, 'Invalid', message, { name, group, kind, causes }),
  badRequest: (message: string): StatusError => make(400, 'BadRequest', message),
  /**
   * Kubernetes' NewGenericServerResponse for 422 without a server message: what a JSON patch whose
   * operation fails is answered with (the failing operation is not named).
   */
  unprocessable: (): StatusError =>
    make(422, 'Invalid', 'the server rejected our request due to an error in our request', {}),
  unauthorized: (message = 'Unauthorized'): StatusError => make(401, 'Unauthorized', message),
  forbidden: (message: string, details?: Status['details']): StatusError =>
    make(403, 'Forbidden', message, details),
  /** Kubernetes' NewForbidden: `<resource> "<name>" is forbidden: <reason>` (without the name when unnamed). */
  forbiddenObject: (q: Qualified, name: string, reason: string): StatusError =>
    make(403, 'Forbidden', `${qualified(q)}${name ? ` "${name}"` : ''} is forbidden: ${reason}`, {
      name,
      group: q.group,
      kind: q.resource,
    }),
  methodNotAllowed: (message: string): StatusError => make(405, 'MethodNotAllowed', message),
  notAcceptable: (message: string): StatusError => make(406, 'NotAcceptable', message),
  gone: (message: string): StatusError => make(410, 'Gone', message),
  expired: (message: string): StatusError => make(410, 'Expired', message),
  /** A continue token that can no longer be served; carries a fresh token in metadata.continue. */
  resourceExpired: (message: string, freshContinue?: string): StatusError => {
    const e = make(410, 'Expired', message);
    if (freshContinue) e.status.metadata = { continue: freshContinue };
    return e;
  },
  tooLarge: (message: string): StatusError => make(413, 'RequestEntityTooLarge', message),
  unsupportedMediaType: (message: string): StatusError => make(415, 'UnsupportedMediaType', message),
  tooManyRequests: (message: string, retryAfterSeconds: number): StatusError =>
    make(
      429,
      'TooManyRequests',
      message,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  timeout: (message: string, retryAfterSeconds?: number, causes?: StatusCause[]): StatusError =>
    make(504, 'Timeout', message, {
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      ...(causes ? { causes } : {}),
    }),
  internal: (message: string): StatusError =>
    make(500, 'InternalError', `Internal error occurred: ${message}`),
  serviceUnavailable: (message: string): StatusError => make(503, 'ServiceUnavailable', message),
  /** A failure another server answered (or a failure to reach it, as 500), passed on with its code. */
  fromServer: (code: number, message: string): StatusError => make(code, reasonsByCode[code] ?? '', message),
};

/**
 * Any thrown value as a StatusError: storage that cannot answer is 503 (wherever the read happened:
 * a store, an admission plugin, an authorizer), unexpected errors a 500 without a stack trace.
 */
export function toStatusError(e: unknown): StatusError {
  if (e instanceof StatusError) return e;
  if (e instanceof StorageError && e.code === 'Unavailable') {
    return statusErrors.serviceUnavailable(`storage is unavailable: ${e.message}`);
  }
  return statusErrors.internal(e instanceof Error ? e.message : String(e));
}

/** The success Status returned by deletes: code 200, as the Status envelope carries the HTTP status. */
export function successStatus(details?: Status['details']): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}
