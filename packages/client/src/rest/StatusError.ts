import type { Status } from '@orch/api';

/** Reasons a Kubernetes API server may return in a Status. */
export const StatusReason = {
  Unknown: '',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  AlreadyExists: 'AlreadyExists',
  Conflict: 'Conflict',
  Gone: 'Gone',
  Invalid: 'Invalid',
  ServerTimeout: 'ServerTimeout',
  Timeout: 'Timeout',
  TooManyRequests: 'TooManyRequests',
  BadRequest: 'BadRequest',
  MethodNotAllowed: 'MethodNotAllowed',
  NotAcceptable: 'NotAcceptable',
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  UnsupportedMediaType: 'UnsupportedMediaType',
  InternalError: 'InternalError',
  Expired: 'Expired',
  ServiceUnavailable: 'ServiceUnavailable',
} as const;

const knownReasons = new Set<string>(Object.values(StatusReason).filter((r) => r !== ''));
// The spec spells the expired-continue reason "ResourceExpired"; treat it as a known alias of Expired.
knownReasons.add('ResourceExpired');

/** An error returned by the API server, carrying the Status object it sent (or one derived from the HTTP answer). */
export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Status) {
    super(status.message || `the server responded with status ${status.code ?? 'unknown'}`);
    this.name = 'StatusError';
    this.status = {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      ...status,
    };
  }

  get code(): number {
    return this.status.code ?? 0;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

interface GenericReason {
  reason: string;
  message: string;
}

/** Reason and message for an HTTP code when the body was not a Status, following client-go. */
function genericReasonFor(code: number): GenericReason {
  switch (code) {
    case 400:
      return {
        reason: StatusReason.BadRequest,
        message: 'the server rejected our request for an unknown reason',
      };
    case 401:
      return {
        reason: StatusReason.Unauthorized,
        message: 'the server has asked for the client to provide credentials',
      };
    case 403:
      return {
        reason: StatusReason.Forbidden,
        message: 'the server does not allow access to the requested resource',
      };
    case 404:
      return { reason: StatusReason.NotFound, message: 'the server could not find the requested resource' };
    case 405:
      return {
        reason: StatusReason.MethodNotAllowed,
        message: 'the server does not allow this method on the requested resource',
      };
    case 406:
      return {
        reason: StatusReason.NotAcceptable,
        message: 'the server was unable to respond with a content type that the client supports',
      };
    case 409:
      return { reason: StatusReason.Conflict, message: 'the server reported a conflict' };
    case 410:
      return { reason: StatusReason.Gone, message: 'the server has asked for the client to list again' };
    case 413:
      return {
        reason: StatusReason.RequestEntityTooLarge,
        message: 'the server has rejected the request because the request entity is too large',
      };
    case 415:
      return {
        reason: StatusReason.UnsupportedMediaType,
        message: 'the server was unable to accept the content type of the request',
      };
    case 422:
      return {
        reason: StatusReason.Invalid,
        message: 'the server rejected our request due to an error in our request',
      };
    case 429:
      return {
        reason: StatusReason.TooManyRequests,
        message: 'the server has received too many requests and has asked us to try again later',
      };
    case 503:
      return {
        reason: StatusReason.ServiceUnavailable,
        message: 'the server is currently unable to handle the request',
      };
    case 504:
      return {
        reason: StatusReason.Timeout,
        message:
          'the server was unable to return a response in the time allotted, but may still be processing the request',
      };
    default:
      if (code >= 500) {
        return {
          reason: StatusReason.InternalError,
          message: 'an error on the server has prevented the request from succeeding',
        };
      }
      return {
        reason: StatusReason.Unknown,
        message: `the server responded with the status code ${code} but did not return more information`,
      };
  }
}

/**
 * Builds the error for a failed response whose body is not a Status: the HTTP code with a reason
 * derived from it, and the body text (when short and present) appended to the message.
 */
export function statusErrorFromResponse(code: number, body: string, retryAfterSeconds?: number): StatusError {
  const generic = genericReasonFor(code);
  const trimmed = body.trim();
  const message = trimmed && trimmed.length < 1024 ? `${generic.message} (${trimmed})` : generic.message;
  const status: Status = { code, reason: generic.reason, message };
  if (retryAfterSeconds !== undefined) {
    status.details = { retryAfterSeconds };
  }
  return new StatusError(status);
}

/** True when the value looks like a Status object (kind "Status"). */
export function isStatusObject(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as Status).kind === 'Status';
}

function reasonAndCode(err: unknown): { reason: string; code: number } | undefined {
  if (err instanceof StatusError) {
    return { reason: err.reason, code: err.code };
  }
  return undefined;
}

function matches(err: unknown, reasons: string[], code?: number): boolean {
  const rc = reasonAndCode(err);
  if (!rc) {
    return false;
  }
  if (reasons.includes(rc.reason)) {
    return true;
  }
  return code !== undefined && !knownReasons.has(rc.reason) && rc.code === code;
}

export const isNotFound = (err: unknown): boolean => matches(err, [StatusReason.NotFound], 404);
export const isAlreadyExists = (err: unknown): boolean => matches(err, [StatusReason.AlreadyExists]);
export const isConflict = (err: unknown): boolean => matches(err, [StatusReason.Conflict], 409);
export const isInvalid = (err: unknown): boolean => matches(err, [StatusReason.Invalid], 422);
export const isGone = (err: unknown): boolean => matches(err, [StatusReason.Gone], 410);
export const isResourceExpired = (err: unknown): boolean =>
  matches(err, [StatusReason.Expired, 'ResourceExpired'], 410);
export const isTooManyRequests = (err: unknown): boolean => matches(err, [StatusReason.TooManyRequests], 429);
export const isForbidden = (err: unknown): boolean => matches(err, [StatusReason.Forbidden], 403);
export const isUnauthorized = (err: unknown): boolean => matches(err, [StatusReason.Unauthorized], 401);
export const isTimeout = (err: unknown): boolean => matches(err, [StatusReason.Timeout], 504);
export const isServerTimeout = (err: unknown): boolean => matches(err, [StatusReason.ServerTimeout]);
export const isBadRequest = (err: unknown): boolean => matches(err, [StatusReason.BadRequest], 400);
export const isMethodNotSupported = (err: unknown): boolean =>
  matches(err, [StatusReason.MethodNotAllowed], 405);
export const isInternalError = (err: unknown): boolean => matches(err, [StatusReason.InternalError], 500);
export const isServiceUnavailable = (err: unknown): boolean =>
  matches(err, [StatusReason.ServiceUnavailable], 503);
/** 415: the server does not take the request's body type (a strategic merge patch of a custom resource). */
export const isUnsupportedMediaType = (err: unknown): boolean =>
  matches(err, [StatusReason.UnsupportedMediaType], 415);

/** Whether the Status of the error lists a cause of type `cause` (client-go's HasStatusCause). */
export function hasStatusCause(err: unknown, cause: string): boolean {
  return err instanceof StatusError && (err.status.details?.causes ?? []).some((c) => c.reason === cause);
}

/** Gone or expired: the requested resourceVersion or continue token is no longer served; relist. */
export const isExpiredOrGone = (err: unknown): boolean => isGone(err) || isResourceExpired(err);
