import { parse as parseYAML } from 'yaml';
import { protobufMediaType, protobufMediaTypeAlias, type ProtobufCodec } from '@orch/api';
import { statusErrors } from '../errors/status-error';
import { parseMediaType } from './media-type';

export interface DecodedBody {
  value: unknown;
  /** Keys that appeared twice in one JSON object (strict field validation reports them). */
  duplicates: string[];
}

/** Decodes a JSON text, reporting keys repeated within one object as Kubernetes' strict decoding does. */
export function parseJSONStrict(text: string): DecodedBody {
  const duplicates: string[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw statusErrors.badRequest(`error decoding request body: ${(e as Error).message}`);
  }
  if (text.length < 1 << 20 && hasPossibleDuplicate(text)) findDuplicates(text, duplicates);
  return { value, duplicates };
}

/** Cheap pre-check: only bodies with a repeated `"key":` token are scanned in full. */
function hasPossibleDuplicate(text: string): boolean {
  const seen = new Set<string>();
  const re = /"((?:[^"\\]|\\.)*)"\s*:/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (seen.has(m[1]!)) return true;
    seen.add(m[1]!);
  }
  return false;
}

/** Walks the JSON text once, tracking keys per object, and records `duplicate field "path"`. */
function findDuplicates(text: string, out: string[]): void {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const keys = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const k = str();
        const p = path ? `${path}.${k}` : k;
        if (keys.has(k)) out.push(`duplicate field "${p}"`);
        keys.add(k);
        ws();
        i++; // ':'
        value(p);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        i++; // '}'
        return;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        i++;
        return;
      }
    }
    if (c === '"') {
      str();
      return;
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  };
  value('');
}

/** Decodes a request body by its Content-Type (JSON, YAML or protobuf). */
export function decodeBody(contentType: string | undefined, body: Buffer, codec: ProtobufCodec): DecodedBody {
  const media = parseMediaType(contentType ?? 'application/json');
  const name = media ? `${media.type}/${media.subtype}` : '';
  switch (name) {
    case 'application/json':
    case '':
      return parseJSONStrict(body.toString('utf8'));
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
      try {
        return { value: parseYAML(body.toString('utf8'), { uniqueKeys: false }) as unknown, duplicates: [] };
      } catch (e) {
        throw statusErrors.badRequest(`error decoding YAML: ${(e as Error).message}`);
      }
    case protobufMediaType:
    case protobufMediaTypeAlias:
      try {
        return { value: codec.decode(body), duplicates: [] };
      } catch (e) {
        throw statusErrors.badRequest((e as Error).message);
      }
    default:
      throw statusErrors.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${protobufMediaType}, ${protobufMediaTypeAlias}`);
  }
}
