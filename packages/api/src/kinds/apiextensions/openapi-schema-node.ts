import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../../schema/fields';
import { objectMeta } from '../../meta/object-meta';
import { openAPIFormats } from '../../validation/openapi-formats';

type Json = Record<string, any>;

/** Formats checked when validating custom resources; other OpenAPI formats are informative only. */
const checkedFormats = new Set([
  'date-time',
  'byte',
  'int32',
  'int64',
  'double',
  ...Object.keys(openAPIFormats),
]);

/** The value validations of JSONSchemaProps that apply to a single node, carried as they are. */
const valueKeywords = [
  'type',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'multipleOf',
];

/** Keywords of JSONSchemaProps carried onto declared nodes as they are. */
const kept = [
  ...valueKeywords,
  'nullable',
  'default',
  'description',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const combinators = ['oneOf', 'anyOf', 'allOf', 'not'] as const;

/**
 * The `keys` of a node, copied, with exclusive bounds in JSON Schema's spelling (OpenAPI v3.0 spells
 * them as booleans next to minimum/maximum) and the format when it is one that is checked.
 */
function copyKeywords(schema: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (schema[k] !== undefined) out[k] = structuredClone(schema[k]);
  if (schema.exclusiveMinimum === true && schema.minimum !== undefined) {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true && schema.maximum !== undefined) {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
  if (typeof schema.format === 'string' && checkedFormats.has(schema.format)) out.format = schema.format;
  return out;
}

/** A schema inside a combinator as plain JSON Schema: value validations, nested the same way. */
function valueValidationOf(schema: Json): Json {
  const out = copyKeywords(schema, [...valueKeywords, 'required']);
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties)
        .filter(([, v]) => isObject(v))
        .map(([k, v]) => [k, valueValidationOf(v as Json)]),
    );
  }
  if (isObject(schema.items)) out.items = valueValidationOf(schema.items);
  if (isObject(schema.additionalProperties))
    out.additionalProperties = valueValidationOf(schema.additionalProperties);
  Object.assign(out, combinatorsOf(schema));
  return out;
}

/** The oneOf, anyOf, allOf and not of a node, as value validations; empty when it has none. */
function combinatorsOf(schema: Json): Json {
  const out: Json = {};
  for (const k of combinators) {
    const v = schema[k];
    if (k === 'not' ? isObject(v) : Array.isArray(v))
      out[k] = k === 'not' ? valueValidationOf(v) : (v as unknown[]).filter(isObject).map(valueValidationOf);
  }
  return out;
}

/**
 * Converts one node of a CRD's structural openAPIV3Schema into the node vocabulary every engine
 * (validation, pruning, defaulting, field management) reads, so that a custom resource is served
 * like any declared kind. Value validations that need more than one node (allOf, anyOf, oneOf, not)
 * are kept apart for the validator (see OrchKeyword.valueValidation); CEL rules are not carried.
 */
export function schemaNodeOf(schema: Json): TSchema {
  const out = copyKeywords(schema, kept);
  if (schema['x-kubernetes-int-or-string'] === true) {
    delete out.type;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
    out[OrchKeyword.special] = 'intOrString';
  }
  if (isObject(schema.properties)) {
    const properties: Json = {};
    for (const [name, child] of Object.entries(schema.properties))
      if (isObject(child)) properties[name] = schemaNodeOf(child);
    if (schema['x-kubernetes-embedded-resource'] === true) {
      properties.apiVersion ??= { type: 'string' };
      properties.kind ??= { type: 'string' };
      properties.metadata ??= { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    }
    out.type = 'object';
    out.properties = properties;
    if (Array.isArray(schema.required) && schema.required.length) out.required = [...schema.required];
  } else if (isObject(schema.additionalProperties)) {
    out.additionalProperties = schemaNodeOf(schema.additionalProperties);
  } else if (schema.type === 'object' && schema['x-kubernetes-preserve-unknown-fields'] !== true) {
    // an object without properties holds nothing: everything in it is pruned
    out.properties = {};
  }
  if (schema['x-kubernetes-embedded-resource'] === true && !isObject(schema.properties))
    out['x-kubernetes-preserve-unknown-fields'] = true;
  if (isObject(schema.items)) out.items = schemaNodeOf(schema.items);
  // Kubernetes validates the uniqueness of a custom resource's sets and maps (built-in kinds check
  // their lists in their own validation)
  if (schema['x-kubernetes-list-type'] === 'set') out[OrchKeyword.uniqueBy] = [];
  else if (schema['x-kubernetes-list-type'] === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys']))
    out[OrchKeyword.uniqueBy] = [...(schema['x-kubernetes-list-map-keys'] as string[])];
  const valueValidation = combinatorsOf(schema);
  if (Object.keys(valueValidation).length) out[OrchKeyword.valueValidation] = valueValidation;
  return out as TSchema;
}

/**
 * The whole object of a custom resource from a version's openAPIV3Schema: apiVersion and kind
 * strings and the standard ObjectMeta at the root, whatever the schema says of them.
 */
export function customResourceSchema(
  openAPIV3Schema: Json | undefined,
  crdName: string,
  group: string,
  version: string,
  kind: string,
): TSchema {
  const root = schemaNodeOf(
    openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  ) as Json;
  root.type = 'object';
  root.properties = {
    ...(isObject(root.properties) ? root.properties : {}),
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: objectMeta(),
  };
  root.required = (Array.isArray(root.required) ? root.required : []).filter(
    (r: string) => r !== 'metadata' && r !== 'apiVersion' && r !== 'kind',
  );
  if (!root.required.length) delete root.required;
  delete root.additionalProperties;
  root[OrchKeyword.customResource] = crdName;
  // the definition name Kubernetes publishes it under: com.example.stable.v1.CronTab
  root[OrchKeyword.name] = `${group.split('.').reverse().join('.')}.${version}.${kind}`;
  return root as TSchema;
}
