/** A Kubernetes `Status` failure object. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details: Record<string, unknown>;
  code: number;
}

/** Builds the Status object Kubernetes clients expect for an error. */
export function failureStatus(code: number, reason: string, message: string): StatusBody {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details: {},
    code,
  };
}
