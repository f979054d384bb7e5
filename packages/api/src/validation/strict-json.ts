/**
 * JSON parsing that also reports duplicate object keys, which Kubernetes' strict decoding rejects
 * (`duplicate field "spec.replicas"`, the path in the decoder's notation: fields joined with '.',
 * list indices as `[0]`). Duplicates can only be seen in the text, so after the native parser has
 * produced the value (and rejected malformed input), a small scanner walks the text once, tracking
 * the keys of each open object. The last of duplicate keys wins, as in Go.
 */
export interface StrictJSONResult {
  value: unknown;
  duplicates: string[];
}

interface Frame {
  object: boolean;
  /** Keys seen so far in an object, created on its second key. */
  keys: Set<string> | undefined;
  first: string | undefined;
  key: string | undefined;
  expectKey: boolean;
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function framePath(frames: readonly Frame[], depth: number, last: string): string {
  let s = '';
  for (let i = 0; i < depth; i++) {
    const f = frames[i]!;
    if (f.object) s += s === '' ? (f.key ?? '') : `.${f.key ?? ''}`;
    else s += `[${f.index}]`;
  }
  return s === '' ? last : `${s}.${last}`;
}

/** Parses `text` as JSON (throwing SyntaxError like JSON.parse) and lists duplicate fields. */
export function parseStrictJSON(text: string): StrictJSONResult {
  const value: unknown = JSON.parse(text);
  const duplicates: string[] = [];
  const frames: Frame[] = [];
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) {
          escaped = true;
          i++;
        } else if (d === QUOTE) break;
      }
      const top = depth > 0 ? frames[depth - 1]! : undefined;
      if (top !== undefined && top.object && top.expectKey) {
        const k = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        if (top.first === undefined) top.first = k;
        else {
          top.keys ??= new Set([top.first]);
          if (top.keys.has(k))
            duplicates.push(`duplicate field ${JSON.stringify(framePath(frames, depth - 1, k))}`);
          else top.keys.add(k);
        }
        top.key = k;
        top.expectKey = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const object = c === 0x7b;
      const f = frames[depth];
      if (f === undefined) {
        frames[depth] = {
          object,
          keys: undefined,
          first: undefined,
          key: undefined,
          expectKey: object,
          index: 0,
        };
      } else {
        f.object = object;
        f.keys = undefined;
        f.first = undefined;
        f.key = undefined;
        f.expectKey = object;
        f.index = 0;
      }
      depth++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */) {
      const top = frames[depth - 1]!;
      if (top.object) top.expectKey = true;
      else top.index++;
    }
  }
  return { value, duplicates };
}
