import protobuf from 'protobufjs';
import YAML from 'yaml';
import { mediaTypeName, parseAccept } from '../negotiation/media-type';
import { openAPIv2Messages } from './openapiv2-messages';

/** The media type the protobuf form is served as. */
export const openAPIv2ProtobufMediaType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The older spelling clients still ask for (kubectl); answered with {@link openAPIv2ProtobufMediaType}. */
export const openAPIv2ProtobufMediaTypeDeprecated =
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

const formats: Record<string, 'json' | 'protobuf'> = {
  'application/json': 'json',
  'application/*': 'json',
  '*/*': 'json',
  [openAPIv2ProtobufMediaType]: 'protobuf',
  [openAPIv2ProtobufMediaTypeDeprecated]: 'protobuf',
};

/**
 * The form of `/openapi/v2` an Accept header asks for: the first range, best first, that names JSON
 * (or a wildcard) or the protobuf form; undefined when none does. No header means JSON.
 */
export function openAPIv2Format(accept: string | undefined): 'json' | 'protobuf' | undefined {
  for (const r of parseAccept(accept)) {
    const format = formats[mediaTypeName(r)];
    if (format) return format;
  }
  return undefined;
}

const root = protobuf.Root.fromJSON(openAPIv2Messages);
/** The `openapi.v2.Document` message. */
export const openAPIv2DocumentType = root.lookupType('openapi.v2.Document');

type JSONObject = Record<string, unknown>;
type Message = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const asObject = (v: unknown): JSONObject => (isObject(v) ? v : {});

/** A value carried as YAML text, as gnostic carries values whose type the document leaves open. */
function any(value: unknown): Message {
  return { yaml: YAML.stringify(value, { lineWidth: 0 }) };
}

/** The `x-` keys of an object, in their order. */
function vendorExtensions(o: JSONObject): Message[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, value]) => ({ name, value: any(value) }));
}

/** Copies the keys present in `o` onto `out` under their message names, with a conversion. */
function copy(
  out: Message,
  o: JSONObject,
  keys: Record<string, string>,
  convert: (v: unknown) => unknown = (v) => v,
): void {
  for (const [json, proto] of Object.entries(keys)) if (o[json] !== undefined) out[proto] = convert(o[json]);
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [String(v)]);

/** Keywords of the value kinds (schemas, non-body parameters, primitive items). */
const stringKeys = { format: 'format', pattern: 'pattern', description: 'description' };
const numberKeys = { maximum: 'maximum', minimum: 'minimum', multipleOf: 'multiple_of' };
const integerKeys = {
  maxLength: 'max_length',
  minLength: 'min_length',
  maxItems: 'max_items',
  minItems: 'min_items',
};

/** The value keywords of a schema or parameter; JSON Schema's numeric exclusive bounds become v2's flags. */
function valueKeywords(out: Message, o: JSONObject): void {
  copy(out, o, stringKeys, String);
  copy(out, o, numberKeys, Number);
  copy(out, o, integerKeys, Number);
  copy(out, o, { uniqueItems: 'unique_items' }, Boolean);
  for (const [key, bound, flag] of [
    ['exclusiveMaximum', 'maximum', 'exclusive_maximum'],
    ['exclusiveMinimum', 'minimum', 'exclusive_minimum'],
  ] as const) {
    const v = o[key];
    if (typeof v === 'boolean') out[flag] = v;
    else if (typeof v === 'number') {
      out[bound] ??= v;
      out[flag] = true;
    }
  }
  if (o.default !== undefined) out.default = any(o.default);
  if (Array.isArray(o.enum)) out.enum = o.enum.map(any);
  const ext = vendorExtensions(o);
  if (ext.length) out.vendor_extension = ext;
}

function schema(s: unknown): Message {
  const o = asObject(s);
  const out: Message = {};
  if (typeof o.$ref === 'string') out._ref = o.$ref;
  copy(out, o, { title: 'title', discriminator: 'discriminator' }, String);
  copy(out, o, { maxProperties: 'max_properties', minProperties: 'min_properties' }, Number);
  copy(out, o, { readOnly: 'read_only' }, Boolean);
  valueKeywords(out, o);
  if (o.required !== undefined) out.required = strings(o.required);
  if (o.type !== undefined) out.type = { value: strings(o.type) };
  if (o.items !== undefined)
    out.items = { schema: (Array.isArray(o.items) ? o.items : [o.items]).map(schema) };
  if (typeof o.additionalProperties === 'boolean')
    out.additional_properties = { boolean: o.additionalProperties };
  else if (o.additionalProperties !== undefined)
    out.additional_properties = { schema: schema(o.additionalProperties) };
  if (Array.isArray(o.allOf)) out.all_of = o.allOf.map(schema);
  if (o.properties !== undefined) out.properties = { additional_properties: namedSchemas(o.properties) };
  if (o.example !== undefined) out.example = any(o.example);
  return out;
}

const namedSchemas = (m: unknown): Message[] =>
  Object.entries(asObject(m)).map(([name, value]) => ({ name, value: schema(value) }));

function primitivesItems(i: unknown): Message {
  const o = asObject(i);
  const out: Message = {};
  copy(out, o, { type: 'type', collectionFormat: 'collection_format' }, String);
  valueKeywords(out, o);
  if (o.items !== undefined) out.items = primitivesItems(o.items);
  return out;
}

const nonBodyKinds: Record<string, string> = {
  header: 'header_parameter_sub_schema',
  formData: 'form_data_parameter_sub_schema',
  query: 'query_parameter_sub_schema',
  path: 'path_parameter_sub_schema',
};

function parametersItem(p: unknown): Message {
  const o = asObject(p);
  if (typeof o.$ref === 'string') {
    const ref: Message = { _ref: o.$ref };
    if (o.description !== undefined) ref.description = String(o.description);
    return { json_reference: ref };
  }
  const out: Message = {};
  copy(out, o, { name: 'name', in: 'in' }, String);
  copy(out, o, { required: 'required' }, Boolean);
  if (o.in === 'body') {
    if (o.description !== undefined) out.description = String(o.description);
    if (o.schema !== undefined) out.schema = schema(o.schema);
    const ext = vendorExtensions(o);
    if (ext.length) out.vendor_extension = ext;
    return { parameter: { body_parameter: out } };
  }
  copy(out, o, { type: 'type', collectionFormat: 'collection_format' }, String);
  if (o.in === 'query' || o.in === 'formData')
    copy(out, o, { allowEmptyValue: 'allow_empty_value' }, Boolean);
  valueKeywords(out, o);
  if (o.items !== undefined) out.items = primitivesItems(o.items);
  return { parameter: { non_body_parameter: { [nonBodyKinds[String(o.in)] ?? nonBodyKinds.query!]: out } } };
}

function responses(r: unknown): Message {
  const o = asObject(r);
  const codes = Object.entries(o)
    .filter(([k]) => !k.startsWith('x-'))
    .map(([name, v]) => {
      const value = asObject(v);
      if (typeof value.$ref === 'string') return { name, value: { json_reference: { _ref: value.$ref } } };
      const response: Message = {};
      if (value.description !== undefined) response.description = String(value.description);
      if (value.schema !== undefined) response.schema = { schema: schema(value.schema) };
      const ext = vendorExtensions(value);
      if (ext.length) response.vendor_extension = ext;
      return { name, value: { response } };
    });
  const out: Message = { response_code: codes };
  const ext = vendorExtensions(o);
  if (ext.length) out.vendor_extension = ext;
  return out;
}

function security(s: unknown): Message[] {
  return (Array.isArray(s) ? s : []).map((req) => ({
    additional_properties: Object.entries(asObject(req)).map(([name, scopes]) => ({
      name,
      value: { value: Array.isArray(scopes) ? scopes.map(String) : [] },
    })),
  }));
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function operation(op: unknown): Message {
  const o = asObject(op);
  const out: Message = {};
  copy(out, o, { summary: 'summary', description: 'description', operationId: 'operation_id' }, String);
  copy(out, o, { tags: 'tags', produces: 'produces', consumes: 'consumes', schemes: 'schemes' }, strings);
  copy(out, o, { deprecated: 'deprecated' }, Boolean);
  if (Array.isArray(o.parameters)) out.parameters = o.parameters.map(parametersItem);
  if (o.responses !== undefined) out.responses = responses(o.responses);
  if (o.security !== undefined) out.security = security(o.security);
  const ext = vendorExtensions(o);
  if (ext.length) out.vendor_extension = ext;
  return out;
}

function pathItem(p: unknown): Message {
  const o = asObject(p);
  const out: Message = {};
  if (typeof o.$ref === 'string') out._ref = o.$ref;
  for (const m of methods) if (o[m] !== undefined) out[m] = operation(o[m]);
  if (Array.isArray(o.parameters)) out.parameters = o.parameters.map(parametersItem);
  const ext = vendorExtensions(o);
  if (ext.length) out.vendor_extension = ext;
  return out;
}

function securityDefinition(d: unknown): Message {
  const o = asObject(d);
  const out: Message = {};
  copy(out, o, { type: 'type', name: 'name', in: 'in', description: 'description' }, String);
  const ext = vendorExtensions(o);
  if (ext.length) out.vendor_extension = ext;
  return o.type === 'basic' ? { basic_authentication_security: out } : { api_key_security: out };
}

/** An OpenAPI v2 (Swagger 2.0) JSON document as an `openapi.v2.Document` message object. */
export function openAPIv2Message(doc: JSONObject): Message {
  const out: Message = {};
  copy(out, doc, { swagger: 'swagger', host: 'host', basePath: 'base_path' }, String);
  copy(out, doc, { schemes: 'schemes', consumes: 'consumes', produces: 'produces' }, strings);
  if (doc.info !== undefined) {
    const info = asObject(doc.info);
    const i: Message = {};
    copy(
      i,
      info,
      { title: 'title', version: 'version', description: 'description', termsOfService: 'terms_of_service' },
      String,
    );
    const ext = vendorExtensions(info);
    if (ext.length) i.vendor_extension = ext;
    out.info = i;
  }
  if (doc.paths !== undefined) {
    const paths = asObject(doc.paths);
    const p: Message = {
      path: Object.entries(paths)
        .filter(([k]) => !k.startsWith('x-'))
        .map(([name, value]) => ({ name, value: pathItem(value) })),
    };
    const ext = vendorExtensions(paths);
    if (ext.length) p.vendor_extension = ext;
    out.paths = p;
  }
  if (doc.definitions !== undefined)
    out.definitions = { additional_properties: namedSchemas(doc.definitions) };
  if (doc.security !== undefined) out.security = security(doc.security);
  if (doc.securityDefinitions !== undefined) {
    out.security_definitions = {
      additional_properties: Object.entries(asObject(doc.securityDefinitions)).map(([name, value]) => ({
        name,
        value: securityDefinition(value),
      })),
    };
  }
  const ext = vendorExtensions(doc);
  if (ext.length) out.vendor_extension = ext;
  return out;
}

/** The protobuf encoding of an OpenAPI v2 JSON document, as Kubernetes serves `/openapi/v2` to protobuf clients. */
export function encodeOpenAPIv2(doc: JSONObject): Buffer {
  const message = openAPIv2DocumentType.fromObject(openAPIv2Message(doc));
  return Buffer.from(openAPIv2DocumentType.encode(message).finish());
}
