/** A bad field selector value escape: the message is Kubernetes'. */
export class FieldSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorError';
  }
}

const needsEscape = /[\\,=]/;
const escapeAll = /[\\,=]/g;

/** Escapes `\`, `,` and `=` with a backslash so the value can be put in a field selector. */
export function escapeFieldValue(value: string): string {
  return needsEscape.test(value) ? value.replace(escapeAll, (c) => '\\' + c) : value;
}

/**
 * Reverses {@link escapeFieldValue} (fields.UnescapeValue). Only `\\`, `\,` and `\=` are escapes;
 * anything else after a backslash, a trailing backslash, or an unescaped `,` or `=` is an error
 * with Kubernetes' message (which prints the rejected character as its code point, e.g. 61 for '=').
 */
export function unescapeFieldValue(s: string): string {
  if (!needsEscape.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') {
        out += c;
        inSlash = false;
        continue;
      }
      throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new FieldSelectorError(
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)}`,
      );
    } else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}
