import { parse as parseYAML } from 'yaml';
import {
  jsonValueName,
  parseStrictJSON,
  protobufMediaType,
  protobufMediaTypeAlias,
  type ProtobufCodec,
} from '@orch/api';
import { statusErrors } from '../errors/status-error';
import { checkDecoded } from './check-decoded';
import { jsonSyntaxError, summarizeBody } from './json-syntax-error';
import { parseMediaType } from './media-type';

export interface DecodedBody {
  value: unknown;
  /** Keys that appeared twice in one JSON object (strict field validation reports them). */
  duplicates: string[];
}

/**
 * Decodes a request body by its Content-Type (JSON, YAML or protobuf); a body the server could not
 * hold exactly is refused (see {@link checkDecoded}). With `into`, the kind a create or update
 * decodes the body as, a body that is no object at all is refused as Kubernetes refuses it: `the
 * object provided is unrecognized (must be of type <Kind>): <why> (<the body's start>)`.
 */
export function decodeBody(
  contentType: string | undefined,
  body: Buffer,
  codec: ProtobufCodec,
  into?: string,
): DecodedBody {
  let decoded: DecodedBody;
  try {
    decoded = decodeByType(contentType, body, codec);
    if (into !== undefined) notAnObject(decoded.value);
  } catch (e) {
    if (!(e instanceof UnrecognizedBody)) throw e;
    throw statusErrors.badRequest(
      into === undefined
        ? e.message
        : `the object provided is unrecognized (must be of type ${into}): ${e.message} (${summarizeBody(body)})`,
    );
  }
  checkDecoded(decoded.value, 'request body');
  return decoded;
}

/** A body whose kind could not even be looked for: not JSON, not YAML, or no object. */
class UnrecognizedBody extends Error {}

/** The decoder's words for a JSON body that holds no object (`null` decodes as an empty one). */
function notAnObject(value: unknown): void {
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return;
  throw new UnrecognizedBody(
    `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonValueName(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
  );
}

function decodeByType(contentType: string | undefined, body: Buffer, codec: ProtobufCodec): DecodedBody {
  // no Content-Type is JSON; one that is not a media type at all is unknown (415), as in Kubernetes
  const media = parseMediaType(contentType || 'application/json');
  const name = media ? `${media.type}/${media.subtype}` : '';
  switch (name) {
    case 'application/json':
      // keys repeated within one object are reported, as Kubernetes' strict decoding does
      try {
        return parseStrictJSON(body.toString('utf8'));
      } catch (e) {
        const why = jsonSyntaxError(body) ?? (e as Error).message;
        throw new UnrecognizedBody(`couldn't get version/kind; json parse error: ${why}`);
      }
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
      try {
        return { value: parseYAML(body.toString('utf8'), { uniqueKeys: false }) as unknown, duplicates: [] };
      } catch (e) {
        const why = (e as Error).message.split('\n')[0]!.replace(/:$/, '');
        throw new UnrecognizedBody(`error converting YAML to JSON: yaml: ${why}`);
      }
    case protobufMediaType:
    case protobufMediaTypeAlias:
      try {
        return { value: codec.decode(body), duplicates: [] };
      } catch (e) {
        throw statusErrors.badRequest((e as Error).message);
      }
    default:
      throw statusErrors.unsupportedMediaType(
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${protobufMediaType}, ${protobufMediaTypeAlias}`,
      );
  }
}
