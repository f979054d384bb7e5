/**
 * Building blocks of Kubernetes' validation messages (apimachinery util/validation), kept
 * character for character: clients and users compare these strings.
 */

/** `must be no more than 63 characters` */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `must be non-empty` */
export function emptyError(): string {
  return 'must be non-empty';
}

/** `must be between 1 and 65535, inclusive` */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/**
 * A regex failure message with examples. Kubernetes appends `'example', ` for every example and
 * joins them with ` or `, which leaves a double space before each `or`:
 * `(e.g. 'my-name',  or '123-abc', regex used for validation is '...')`.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  for (let i = 0; i < examples.length; i++) {
    if (i > 0) s += ' or ';
    s += `'${examples[i]}', `;
  }
  return `${s}regex used for validation is '${fmt}')`;
}
