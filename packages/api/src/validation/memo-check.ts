/**
 * Memoized string checks. Objects repeat the same short strings (label keys and values, container,
 * port and env names), so the result of a validator for a given string is remembered. The memo is
 * bounded (it starts over when full) and long strings are never kept.
 */

const MAX_ENTRIES = 8192;
const MAX_KEY_LENGTH = 256;

export function memoizeCheck(
  check: (value: string) => readonly string[],
): (value: string) => readonly string[] {
  const memo = new Map<string, readonly string[]>();
  return (value) => {
    if (value.length > MAX_KEY_LENGTH) return check(value);
    let r = memo.get(value);
    if (r === undefined) {
      r = Object.freeze(check(value));
      if (memo.size >= MAX_ENTRIES) memo.clear();
      memo.set(value, r);
    }
    return r;
  };
}
