import { parse as parseYAML } from 'yaml';
import { parseStrictJSON, protobufMediaType, protobufMediaTypeAlias, type ProtobufCodec } from '@orch/api';
import { statusErrors } from '../errors/status-error';
import { checkDecoded } from './check-decoded';
import { parseMediaType } from './media-type';

export interface DecodedBody {
  value: unknown;
  /** Keys that appeared twice in one JSON object (strict field validation reports them). */
  duplicates: string[];
}

/**
 * Decodes a request body by its Content-Type (JSON, YAML or protobuf); a body the server could not
 * hold exactly is refused (see {@link checkDecoded}).
 */
export function decodeBody(contentType: string | undefined, body: Buffer, codec: ProtobufCodec): DecodedBody {
  const decoded = decodeByType(contentType, body, codec);
  checkDecoded(decoded.value, 'request body');
  return decoded;
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
        throw statusErrors.badRequest(`error decoding request body: ${(e as Error).message}`);
      }
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
      throw statusErrors.unsupportedMediaType(
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${protobufMediaType}, ${protobufMediaTypeAlias}`,
      );
  }
}
