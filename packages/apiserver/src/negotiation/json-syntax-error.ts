/**
 * The syntax error Kubernetes' decoder reports for a body that is not JSON, in its words
 * (`unexpected end of JSON input`, `invalid character 'x' looking for beginning of value`, ...):
 * the first byte at which a JSON scanner must stop, and what it was looking for there. Run only
 * once the native parser has refused the text, to name the fault as Kubernetes clients see it.
 */

const enum Ctx {
  /** Inside an object, before the colon of a key. */
  ObjectKey,
  /** Inside an object, after a key's colon. */
  ObjectValue,
  ArrayValue,
}

type State =
  | 'value'
  | 'valueOrEnd'
  | 'keyOrEnd'
  | 'key'
  | 'end'
  | 'top'
  | 'string'
  | 'escape'
  | 'escapeU1'
  | 'escapeU2'
  | 'escapeU3'
  | 'escapeU4'
  | 'neg'
  | 'int'
  | 'zero'
  | 'dot'
  | 'fraction'
  | 'exponent'
  | 'exponentSign'
  | 'exponentDigits'
  | 'literal';

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Control characters with a short escape. */
const namedEscapes: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
};

/** A byte as the scanner quotes it: the character it stands for as a code point, escaped as needed. */
function quoteByte(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  if (namedEscapes[c]) return `'${namedEscapes[c]}'`;
  if (c === 0x5c) return `'\\\\'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // Latin-1 controls, the no-break space and the soft hyphen are not printable either
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u00${c.toString(16)}'`;
  return `'${String.fromCharCode(c)}'`;
}

const literals: Record<number, string> = { 0x74: 'true', 0x66: 'false', 0x6e: 'null' };

/**
 * The error message for `body`, or undefined when it is valid JSON after all. Bytes, not characters,
 * are scanned: a stray non-ASCII byte is named by its first byte, as the decoder names it.
 */
export function jsonSyntaxError(body: Uint8Array): string | undefined {
  const stack: Ctx[] = [];
  let state: State = 'value';
  let literal = '';
  let literalAt = 0;
  const invalid = (c: number, what: string): string => `invalid character ${quoteByte(c)} ${what}`;
  /** After a value: where the enclosing container stands, or the top level. */
  const endValue = (): State => (stack.length === 0 ? 'top' : 'end');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    // a value ended by the byte that follows it is rescanned in the state after the value
    for (;;) {
      switch (state) {
        case 'valueOrEnd':
          if (isSpace(c)) break;
          if (c === 0x5d) {
            stack.pop();
            state = endValue();
            break;
          }
          state = 'value';
          continue;
        case 'value':
          if (isSpace(c)) break;
          if (c === 0x7b) {
            stack.push(Ctx.ObjectKey);
            state = 'keyOrEnd';
          } else if (c === 0x5b) {
            stack.push(Ctx.ArrayValue);
            state = 'valueOrEnd';
          } else if (c === 0x22) state = 'string';
          else if (c === 0x2d) state = 'neg';
          else if (c === 0x30) state = 'zero';
          else if (c >= 0x31 && c <= 0x39) state = 'int';
          else if (literals[c]) {
            literal = literals[c]!;
            literalAt = 1;
            state = 'literal';
          } else return invalid(c, 'looking for beginning of value');
          break;
        case 'keyOrEnd':
          if (isSpace(c)) break;
          if (c === 0x7d) {
            stack.pop();
            state = endValue();
            break;
          }
          state = 'key';
          continue;
        case 'key':
          if (isSpace(c)) break;
          if (c !== 0x22) return invalid(c, 'looking for beginning of object key string');
          state = 'string';
          break;
        case 'end': {
          if (isSpace(c)) break;
          const top = stack[stack.length - 1]!;
          if (top === Ctx.ObjectKey) {
            if (c !== 0x3a) return invalid(c, 'after object key');
            stack[stack.length - 1] = Ctx.ObjectValue;
            state = 'value';
          } else if (top === Ctx.ObjectValue) {
            if (c === 0x2c) {
              stack[stack.length - 1] = Ctx.ObjectKey;
              state = 'key';
            } else if (c === 0x7d) {
              stack.pop();
              state = endValue();
            } else return invalid(c, 'after object key:value pair');
          } else if (c === 0x2c) state = 'value';
          else if (c === 0x5d) {
            stack.pop();
            state = endValue();
          } else return invalid(c, 'after array element');
          break;
        }
        case 'top':
          if (!isSpace(c)) return invalid(c, 'after top-level value');
          break;
        case 'string':
          if (c === 0x22) state = endValue();
          else if (c === 0x5c) state = 'escape';
          else if (c < 0x20) return invalid(c, 'in string literal');
          break;
        case 'escape':
          if ('bfnrt\\/"'.includes(String.fromCharCode(c))) state = 'string';
          else if (c === 0x75) state = 'escapeU1';
          else return invalid(c, 'in string escape code');
          break;
        case 'escapeU1':
        case 'escapeU2':
        case 'escapeU3':
        case 'escapeU4':
          if (!isHex(c)) return invalid(c, 'in \\u hexadecimal character escape');
          state = state === 'escapeU4' ? 'string' : (`escapeU${Number(state.slice(-1)) + 1}` as State);
          break;
        case 'neg':
          if (c === 0x30) state = 'zero';
          else if (c >= 0x31 && c <= 0x39) state = 'int';
          else return invalid(c, 'in numeric literal');
          break;
        case 'int':
          if (isDigit(c)) break;
          state = 'zero';
          continue;
        case 'zero':
          if (c === 0x2e) state = 'dot';
          else if (c === 0x65 || c === 0x45) state = 'exponent';
          else {
            state = endValue();
            continue;
          }
          break;
        case 'dot':
          if (!isDigit(c)) return invalid(c, 'after decimal point in numeric literal');
          state = 'fraction';
          break;
        case 'fraction':
          if (isDigit(c)) break;
          if (c === 0x65 || c === 0x45) state = 'exponent';
          else {
            state = endValue();
            continue;
          }
          break;
        case 'exponent':
          if (c === 0x2b || c === 0x2d) {
            state = 'exponentSign';
            break;
          }
          state = 'exponentSign';
          continue;
        case 'exponentSign':
          if (!isDigit(c)) return invalid(c, 'in exponent of numeric literal');
          state = 'exponentDigits';
          break;
        case 'exponentDigits':
          if (isDigit(c)) break;
          state = endValue();
          continue;
        case 'literal':
          if (c !== literal.charCodeAt(literalAt)) {
            return invalid(
              c,
              `in literal ${literal} (expecting ${quoteByte(literal.charCodeAt(literalAt))})`,
            );
          }
          if (++literalAt === literal.length) state = endValue();
          break;
      }
      break;
    }
  }
  // a number may end the text; anything else still open is cut short
  const complete =
    state === 'top' ||
    (stack.length === 0 &&
      (state === 'int' || state === 'zero' || state === 'fraction' || state === 'exponentDigits'));
  return complete ? undefined : 'unexpected end of JSON input';
}

/**
 * A short view of a request body for an error message, as Kubernetes gives one: `<empty>`, the first
 * 30 bytes of a body that starts like a JSON object, else their hex; ` ...` when cut.
 */
export function summarizeBody(body: Uint8Array, max = 30): string {
  if (body.length === 0) return '<empty>';
  const head = Buffer.from(body.subarray(0, max));
  const text = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > max ? `${text} ...` : text;
}
