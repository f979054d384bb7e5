import { aggregateText } from '@orch/api';
import { StatusError } from '../errors/status-error';

/**
 * A request that carries a credential which fails to authenticate. Answered as Kubernetes does, with
 * a bare 401 "Unauthorized"; `detail` says why (TokenReview reports it in status.error).
 */
export class AuthenticationError extends StatusError {
  constructor(readonly detail: string) {
    super({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  }

  /** Several failures as one, formatted like Kubernetes' error aggregate (`[a, b]`). */
  static aggregate(errors: readonly AuthenticationError[]): AuthenticationError {
    return new AuthenticationError(aggregateText(errors.map((e) => e.detail)));
  }
}

/** The detail of an authentication failure of any kind. */
export function authenticationDetail(e: unknown): string {
  if (e instanceof AuthenticationError) return e.detail;
  return e instanceof Error ? e.message : String(e);
}
