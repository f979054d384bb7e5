import { goQuote } from '../goQuote';

/**
 * Error texts of label selectors. Requirement checks report apimachinery field errors
 * (`values[0][app]: Invalid value: "a b": ...`); a missing path prints as Go's `<nil>`.
 */

/** A bad label selector: parse errors, invalid keys, values or operators. */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

/** Go's %#v of a []string: `[]string{"a", "b"}`, `[]string{}` or `[]string(nil)`. */
export function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** `path: Invalid value: <value>: detail`, as field.Invalid(...).Error() prints it. */
export function invalidValue(
  path: string | undefined,
  value: string | readonly string[] | undefined,
  detail: string,
) {
  const rendered = typeof value === 'string' ? goQuote(value) : goStringSlice(value);
  return `${path ?? '<nil>'}: Invalid value: ${rendered}: ${detail}`;
}

/** `path: Unsupported value: "x": supported values: "a", "b"`, as field.NotSupported prints it. */
export function unsupportedValue(
  path: string | undefined,
  value: string,
  supported: readonly string[],
): string {
  return `${path ?? '<nil>'}: Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}`;
}

/** An aggregate of messages as Kubernetes prints it: one message bare, several as `[a, b]`, duplicates once. */
export function aggregate(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0]!;
  const seen = new Set(messages);
  const joined = [...seen].join(', ');
  return seen.size === 1 ? joined : `[${joined}]`;
}
