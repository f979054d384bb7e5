import { aggregateMessage, errorBody, type FieldError } from './field-error';

/** The Status body of an Invalid (422) error, with Kubernetes' field order and omitted empty fields. */
export interface InvalidStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: 'Invalid';
  details: {
    name?: string;
    group?: string;
    kind: string;
    causes: { reason: string; message: string; field: string }[];
  };
  code: 422;
}

/**
 * Kubernetes' NewInvalid: message `<Kind>.<group> "<name>" is invalid: <aggregate>` (`<Kind> "<name>"`
 * for the core group), one cause per error with its type as reason, its body as message and its path.
 */
export function invalidStatus(
  kind: string,
  group: string,
  name: string,
  errors: readonly FieldError[],
): InvalidStatus {
  const qualified = group === '' ? kind : `${kind}.${group}`;
  const details: InvalidStatus['details'] = {} as InvalidStatus['details'];
  if (name !== '') details.name = name;
  if (group !== '') details.group = group;
  details.kind = kind;
  details.causes = errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${qualified} ${JSON.stringify(name)} is invalid: ${aggregateMessage(errors)}`,
    reason: 'Invalid',
    details,
    code: 422,
  };
}
