import type Ajv from 'ajv';
import type { ErrorObject, KeywordCxt, ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, type NameFormat } from '../schema/fields';
import { isValidPercent } from '../util/names';
import {
  duplicate,
  GoSyntax,
  invalid,
  notSupported,
  required,
  tooLong,
  tooMany,
  typeInvalid,
  type FieldError,
} from './field-error';
import { fieldPathOf } from './field-path';
import { goDecodeError } from './go-decode-error';
import { formatChecks } from './formats';
import { openAPIFormats } from './openapi-formats';
import { structFields, structIdentity } from './schema-node';
import { isRFC3339 } from './time-format';

/**
 * Schema validation of declared nodes with ajv (compiled once per kind, all errors collected),
 * reporting Kubernetes' field errors:
 * - a missing required field: `spec.containers[0].name: Required value`;
 * - a value outside an enum: `Unsupported value: "Foo": supported values: "Always", "OnFailure", "Never"`
 *   (values in declared order);
 * - bounds: `Invalid value: -1: must be greater than or equal to 0` (and "less than or equal to",
 *   "greater than"); `maxLength` as `Too long: must have at most N bytes`, `maxItems` as `Too many`;
 * - `x-orch-format`: one `Invalid value` error per message of Kubernetes' name validators;
 * - a value of the wrong JSON type as FieldValueTypeInvalid with the message of Kubernetes' schema
 *   validation, `Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 *   Kubernetes' own decoder fails such a body with 400 BadRequest before any validation; reporting
 *   it as a field error keeps every problem of a request in one answer, and the error type tells the
 *   API server which answer to give (see `hasTypeErrors`).
 */
export type SchemaValidator = (obj: unknown) => readonly FieldError[];

const NO_ERRORS: readonly FieldError[] = Object.freeze([]);

const base64Regexp = /^[A-Za-z0-9+/]*={0,2}$/;

/** Go's base64 decoding message for a value that is not standard base64, or undefined. */
function base64Error(value: string): string | undefined {
  if (value.length % 4 === 0 && base64Regexp.test(value)) return undefined;
  const m = /[^A-Za-z0-9+/=]/.exec(value);
  const at = m !== null ? m.index : value.length - (value.length % 4);
  return `illegal base64 data at input byte ${at}`;
}

/**
 * Kubernetes' ValidatePositiveIntOrPercent, the rule behind `x-orch-non-negative`: a percent
 * string, or an integer that is not negative.
 */
function nonNegativeErrors(data: unknown): readonly string[] {
  if (typeof data === 'string') return isValidPercent(data);
  if (typeof data === 'number' && data < 0) return ['must be greater than or equal to 0'];
  return NO_MESSAGES;
}

const NO_MESSAGES: readonly string[] = Object.freeze([]);

function createAjv(): Ajv {
  // Loaded on the first compile: only processes that validate objects (the apiserver) pay for ajv.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: AjvClass, _ } = require('ajv') as typeof import('ajv');
  const ajv = new AjvClass({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  ajv.addFormat('date-time', { type: 'string', validate: isRFC3339 });
  ajv.addFormat('byte', { type: 'string', validate: (s: string) => base64Error(s) === undefined });
  for (const [name, validate] of Object.entries(openAPIFormats))
    ajv.addFormat(name, { type: 'string', validate });
  // Project keywords are generated inline (a plain call per value, no per-call context); their
  // messages are computed only when an error is reported.
  ajv.addKeyword({
    keyword: OrchKeyword.format,
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const check = formatChecks[cxt.schema as NameFormat];
      if (check === undefined) throw new Error(`unknown ${OrchKeyword.format} ${String(cxt.schema)}`);
      const fn = cxt.gen.scopeValue('func', { ref: (v: string) => check(v).length === 0 });
      cxt.fail(_`typeof ${cxt.data} == "string" && !${fn}(${cxt.data})`);
    },
  });
  ajv.addKeyword({
    keyword: OrchKeyword.uniqueBy,
    schemaType: 'array',
    code(cxt: KeywordCxt) {
      const keys = cxt.schema as string[];
      const fn = cxt.gen.scopeValue('func', {
        ref: (v: unknown) => duplicateItems(v, keys).length === 0,
      });
      cxt.fail(_`!${fn}(${cxt.data})`);
    },
  });
  ajv.addKeyword({
    keyword: OrchKeyword.nonNegative,
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      const fn = cxt.gen.scopeValue('func', { ref: (v: unknown) => nonNegativeErrors(v).length === 0 });
      cxt.fail(_`!${fn}(${cxt.data})`);
    },
  });
  return ajv;
}

type Node = Record<string, unknown>;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Keywords that mean nothing to validation, left out of what ajv compiles. */
function ignored(keyword: string): boolean {
  if (keyword === 'description' || keyword === 'default') return true;
  return keyword.startsWith('x-') && !checkedKeywords.has(keyword);
}

const checkedKeywords = new Set<string>([OrchKeyword.format, OrchKeyword.nonNegative, OrchKeyword.uniqueBy]);

/**
 * The items of a list that repeat an earlier one, with their index and what repeats: the whole
 * item, or with `keys` its key fields (Kubernetes' validateListSet and validateListMap).
 */
function duplicateItems(list: unknown, keys: readonly string[]): { index: number; value: unknown }[] {
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const out: { index: number; value: unknown }[] = [];
  list.forEach((item, index) => {
    const value =
      keys.length === 0 || typeof item !== 'object' || item === null
        ? item
        : Object.fromEntries(keys.filter((k) => k in item).map((k) => [k, (item as Node)[k]]));
    const id = canonicalJSON(value);
    if (seen.has(id)) out.push({ index, value });
    else seen.add(id);
  });
  return out;
}

/**
 * A repeated item as Kubernetes prints it: a scalar as itself, an object (the key fields of a map
 * item) in Go's %#v of its map, `map[string]interface {}{"name":"a"}`.
 */
function goValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Node;
  const entries = Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`);
  return new GoSyntax(`map[string]interface {}{${entries.join(', ')}}`);
}

/** JSON with object keys sorted, so that equal values have one text. */
function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Node;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJSON(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The schemas handed to ajv: the declarations in the shapes ajv checks fastest, on one ajv
 * instance shared by every kind.
 * - Every struct becomes a schema of its own, referenced where it is used, so ajv compiles one
 *   small function per struct (a struct used by several kinds, such as ObjectMeta or PodSpec, is
 *   compiled once) instead of inlining the whole tree of a kind into one huge function.
 * - Values that are integers or strings (intOrString) or strings or numbers (quantity) get a list
 *   of types instead of anyOf; maps get additionalProperties instead of a catch-all
 *   patternProperties; int32 bounds become minimum/maximum; documentation is dropped.
 * Paths and structure are unchanged, so errors map back onto the declarations.
 */
class AjvSchemas {
  readonly ajv = createAjv();
  private readonly structIds = new Map<object, string>();
  private count = 0;

  /** The compiled validator of a declared node. */
  compile(schema: TSchema): ValidateFunction {
    return this.ajv.compile(this.convert(schema));
  }

  private convert(schema: TSchema): Node {
    const node = schema as Node;
    if (node.type === 'object' && node.properties !== undefined) return { $ref: this.struct(schema) };
    const out: Node = { ...(node[OrchKeyword.valueValidation] as Node | undefined) };
    for (const k of Object.keys(node)) {
      if (ignored(k)) continue;
      const v = node[k];
      if (k === 'items') {
        out.items = this.convert(v as TSchema);
      } else if (k === 'patternProperties') {
        const pattern = v as Record<string, TSchema>;
        const keys = Object.keys(pattern);
        if (keys.length === 1 && keys[0] === '^(.*)$')
          out.additionalProperties = this.convert(pattern[keys[0]]!);
        else out.patternProperties = Object.fromEntries(keys.map((p) => [p, this.convert(pattern[p]!)]));
      } else if (k === 'additionalProperties' && typeof v === 'object') {
        out.additionalProperties = this.convert(v as TSchema);
      } else if (k === 'anyOf') {
        const branches = v as Node[];
        const simple = branches.every((b) => Object.keys(b).length === 1 && typeof b.type === 'string');
        if (simple) out.type = branches.map((b) => b.type as string);
        else out.anyOf = branches.map((b) => this.convert(b as TSchema));
      } else if (k === 'format' && (v === 'int32' || v === 'int64' || v === 'double')) {
        if (v === 'int32') {
          if (node.minimum === undefined && node.exclusiveMinimum === undefined) out.minimum = INT32_MIN;
          if (node.maximum === undefined) out.maximum = INT32_MAX;
        }
      } else {
        out[k] = v;
      }
    }
    return out;
  }

  private struct(schema: TSchema): string {
    const identity = structIdentity(schema);
    let id = this.structIds.get(identity);
    if (id !== undefined) return id;
    id = `orch:struct:${this.count++}`;
    this.structIds.set(identity, id);
    const node = schema as Node;
    const body: Node = { type: 'object' };
    const props: Node = {};
    for (const [name, child] of structFields(schema)) props[name] = this.convert(child);
    body.properties = props;
    if (Array.isArray(node.required) && node.required.length > 0) body.required = node.required;
    Object.assign(body, node[OrchKeyword.valueValidation] as Node | undefined);
    this.ajv.addSchema(body, id);
    return id;
  }
}

let shared: AjvSchemas | undefined;

/** The ajv schemas of every kind (formats and project keywords registered once). */
function sharedSchemas(): AjvSchemas {
  return (shared ??= new AjvSchemas());
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const formatDetails: Record<string, (data: unknown) => string> = {
  'date-time': () => 'must be an RFC 3339 date-time (e.g. 2006-01-02T15:04:05Z)',
  byte: (data) => base64Error(String(data)) ?? 'illegal base64 data',
};

function typeError(path: string, data: unknown, expected: string): FieldError {
  const actual = jsonType(data);
  return typeInvalid(path, actual, `${path} in body must be of type ${expected}: "${actual}"`);
}

function expectedTypes(types: unknown): string {
  return Array.isArray(types) ? types.join(' or ') : String(types);
}

/** Converts ajv's errors of one validation to field errors (only runs when there are errors). */
function toFieldErrors(root: TSchema, errors: readonly ErrorObject[]): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const data = e.data;
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required') {
      out.push(required(fieldPathOf(root, e.instancePath, String(params.missingProperty))));
      continue;
    }
    const path = fieldPathOf(root, e.instancePath);
    switch (e.keyword) {
      case 'type': {
        const error = typeError(path, data, expectedTypes(params.type));
        const decodeError = goDecodeError(root, e.instancePath, data);
        if (decodeError !== undefined) error.decodeError = decodeError;
        out.push(error);
        break;
      }
      case 'enum': {
        // Declared order: declarations list values as Kubernetes' validator does (a sorted set for most).
        const allowed = ((params.allowedValues ?? []) as unknown[]).map(String);
        out.push(notSupported(path, data, allowed));
        break;
      }
      case 'oneOf': {
        const passing = params.passingSchemas as number[] | null;
        const found = passing ? `Found ${passing.length} valid alternatives` : 'Found none valid';
        out.push(
          invalid(path, jsonType(data), `${path} must validate one and only one schema (oneOf). ${found}`),
        );
        break;
      }
      case 'anyOf':
        out.push(invalid(path, jsonType(data), `${path} must validate at least one schema (anyOf)`));
        break;
      case 'not':
        out.push(invalid(path, jsonType(data), `${path} must not validate the schema (not)`));
        break;
      case 'minimum':
        out.push(invalid(path, data, `must be greater than or equal to ${String(params.limit)}`));
        break;
      case 'maximum':
        out.push(invalid(path, data, `must be less than or equal to ${String(params.limit)}`));
        break;
      case 'exclusiveMinimum':
        out.push(invalid(path, data, `must be greater than ${String(params.limit)}`));
        break;
      case 'exclusiveMaximum':
        out.push(invalid(path, data, `must be less than ${String(params.limit)}`));
        break;
      case 'maxLength':
        out.push(tooLong(path, data, Number(params.limit)));
        break;
      case 'minLength':
        out.push(
          data === ''
            ? required(path)
            : invalid(path, data, `must be at least ${String(params.limit)} characters`),
        );
        break;
      case 'maxItems':
        out.push(tooMany(path, Array.isArray(data) ? data.length : 0, Number(params.limit)));
        break;
      case 'minItems':
        out.push(
          Array.isArray(data) && data.length === 0
            ? required(path)
            : invalid(path, data, `must have at least ${String(params.limit)} items`),
        );
        break;
      case 'pattern':
        out.push(invalid(path, data, `${path} in body should match '${String(params.pattern)}'`));
        break;
      case 'format': {
        const format = String(params.format);
        if (openAPIFormats[format]) {
          out.push(invalid(path, data, `${path} in body must be of type ${format}: "${String(data)}"`));
          break;
        }
        const detail = formatDetails[format];
        out.push(
          invalid(
            path,
            data,
            detail !== undefined ? detail(data) : `must be a valid ${String(params.format)}`,
          ),
        );
        break;
      }
      case OrchKeyword.format:
        for (const msg of formatChecks[e.schema as NameFormat](String(data)))
          out.push(invalid(path, data, msg));
        break;
      case OrchKeyword.nonNegative:
        for (const msg of nonNegativeErrors(data)) out.push(invalid(path, data, msg));
        break;
      case OrchKeyword.uniqueBy:
        for (const d of duplicateItems(data, e.schema as string[]))
          out.push(duplicate(`${path}[${d.index}]`, goValue(d.value)));
        break;
      default:
        out.push(invalid(path, data, e.message ?? 'invalid'));
    }
  }
  return out;
}

/** Compiles the schema validator of a declared node (usually a kind's root struct). */
export function compileSchemaValidator(schema: TSchema): SchemaValidator {
  const validate = sharedSchemas().compile(schema);
  return (obj) => {
    if (validate(obj)) return NO_ERRORS;
    return toFieldErrors(schema, validate.errors ?? []);
  };
}

/** True when some error is a wrong JSON type (what Kubernetes rejects while decoding, with 400). */
export function hasTypeErrors(errors: readonly FieldError[]): boolean {
  return errors.some((e) => e.type === 'FieldValueTypeInvalid');
}
