import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, typeDescription, type SpecialType } from '../schema/fields';

export type OpenAPIDialect = 'v2' | 'v3';
export type OpenAPISchema = Record<string, unknown>;

/** Published representations of the values that have their own JSON form. */
const specialSchemas: Record<SpecialType, Record<OpenAPIDialect, OpenAPISchema>> = {
  time: { v2: { type: 'string', format: 'date-time' }, v3: { type: 'string', format: 'date-time' } },
  microTime: { v2: { type: 'string', format: 'date-time' }, v3: { type: 'string', format: 'date-time' } },
  intOrString: {
    v2: { type: 'string', format: 'int-or-string' },
    v3: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
  },
  quantity: {
    v2: { type: 'string' },
    v3: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
  },
  bytes: { v2: { type: 'string', format: 'byte' }, v3: { type: 'string', format: 'byte' } },
  rawExtension: { v2: { type: 'object' }, v3: { type: 'object' } },
  fieldsV1: { v2: { type: 'object' }, v3: { type: 'object' } },
};

/** Keywords copied as they are onto published schemas. */
const published = new Set([
  'type',
  'format',
  'description',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'pattern',
  'maxLength',
  'minLength',
  'minItems',
  'maxItems',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-preserve-unknown-fields',
]);

/**
 * Converts declaration nodes to OpenAPI schemas. Named structs become definitions (v2) or component
 * schemas (v3), referenced from where they are used, as Kubernetes publishes them.
 */
export class SchemaConverter {
  readonly definitions: Record<string, OpenAPISchema> = {};

  constructor(private readonly dialect: OpenAPIDialect) {}

  private refPrefix(): string {
    return this.dialect === 'v2' ? '#/definitions/' : '#/components/schemas/';
  }

  /** A reference to a definition, carrying the use's description and default. */
  ref(name: string, use: Record<string, unknown> = {}): OpenAPISchema {
    const $ref = this.refPrefix() + name;
    const extra: OpenAPISchema = {};
    if (use.description !== undefined) extra.description = use.description;
    if (use.default !== undefined) extra.default = use.default;
    for (const k of ['x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key'] as const) {
      if (use[k] !== undefined) extra[k] = use[k];
    }
    if (this.dialect === 'v3' && Object.keys(extra).length) return { allOf: [{ $ref }], ...extra };
    return { $ref, ...extra };
  }

  /** Registers a named struct (once) and returns its definition name. */
  define(node: TSchema): string {
    const n = node as Record<string, unknown>;
    const name = n[OrchKeyword.name] as string;
    if (this.definitions[name]) return name;
    const def: OpenAPISchema = { type: 'object' };
    this.definitions[name] = def; // registered first: recursive structs refer to themselves
    const props = (n.properties ?? {}) as Record<string, TSchema>;
    const properties: Record<string, OpenAPISchema> = {};
    for (const [key, child] of Object.entries(props)) properties[key] = this.convert(child);
    if (Object.keys(properties).length) def.properties = properties;
    if (Array.isArray(n.required) && n.required.length) def.required = [...(n.required as string[])];
    // the struct's own description, not that of the first field found holding it
    const description = typeDescription(node);
    if (description !== undefined) def.description = description;
    if (n['x-kubernetes-map-type'] !== undefined) def['x-kubernetes-map-type'] = n['x-kubernetes-map-type'];
    return name;
  }

  /** The schema of one use of a node. */
  convert(node: TSchema): OpenAPISchema {
    const n = node as Record<string, unknown>;
    const special = n[OrchKeyword.special] as SpecialType | undefined;
    if (n[OrchKeyword.name] !== undefined) return this.ref(this.define(node), n);
    let out: OpenAPISchema;
    if (special) {
      out = { ...specialSchemas[special][this.dialect] };
      if (n.description !== undefined) out.description = n.description;
      if (n.default !== undefined) out.default = n.default;
      return out;
    }
    out = {};
    for (const [k, v] of Object.entries(n)) if (published.has(k)) out[k] = v;
    if (n.type === 'array' && n.items) out.items = this.convert(n.items as TSchema);
    // an object of no name (a custom resource's nested object) carries its fields in place
    if (n.type === 'object' && n.properties) {
      const properties: Record<string, OpenAPISchema> = {};
      for (const [key, child] of Object.entries(n.properties as Record<string, TSchema>))
        properties[key] = this.convert(child);
      if (Object.keys(properties).length) out.properties = properties;
      if (Array.isArray(n.required) && n.required.length) out.required = [...(n.required as string[])];
    }
    if (n.type === 'object' && n.patternProperties) {
      const values = Object.values(n.patternProperties as Record<string, TSchema>)[0];
      if (values) out.additionalProperties = this.convert(values);
    } else if (n.type === 'object' && n.additionalProperties && typeof n.additionalProperties === 'object') {
      out.additionalProperties = this.convert(n.additionalProperties as TSchema);
    }
    if (n.type === 'integer' && !out.format) out.format = 'int32';
    return out;
  }
}
