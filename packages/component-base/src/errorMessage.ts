/** True for Error objects, including those created in another realm (vm contexts, test runners). */
export function isErrorLike(value: unknown): value is { message: string } {
  return (
    value instanceof Error ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { message?: unknown }).message === 'string' &&
      'stack' in value)
  );
}

/** The message of an error, or the value as text. */
export function errorMessage(value: unknown): string {
  return isErrorLike(value) ? value.message : String(value);
}
