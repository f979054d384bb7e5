/**
 * The field vocabulary of kind declarations.
 *
 * A kind is declared as data: a tree of JSON-schema nodes (built with TypeBox, so the TypeScript type
 * of every kind is inferred from its declaration) annotated with Kubernetes' metadata. Everything the
 * project derives — validators, defaulting, pruning of unknown fields, OpenAPI, protobuf, merge
 * behaviour — reads these nodes and nothing else.
 *
 * Keyword conventions on a node:
 * - standard JSON-schema keywords (`type`, `properties`, `items`, `additionalProperties`, `enum`,
 *   `minimum`, `maximum`, `pattern`, `default`, `description`, `format`);
 * - Kubernetes' OpenAPI extensions, spelled as Kubernetes publishes them
 *   (`x-kubernetes-patch-merge-key`, `x-kubernetes-patch-strategy`, `x-kubernetes-list-type`,
 *   `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`, `x-kubernetes-int-or-string`,
 *   `x-kubernetes-embedded-resource`, `x-kubernetes-preserve-unknown-fields`);
 * - project keywords, prefixed `x-orch-` and never published: see {@link OrchKeyword}.
 */
import type {
  TSchema,
  TString,
  TInteger,
  TNumber,
  TBoolean,
  TArray,
  TRecord,
  TObject,
  TOptional,
  TUnknown,
  TUnion,
  TUnsafe,
  Static,
} from '@sinclair/typebox';
import { Type } from './type-builder';

/** Project keywords carried on schema nodes. */
export const OrchKeyword = {
  /** Kubernetes' protobuf field number of this field within its message. */
  proto: 'x-orch-proto',
  /** Name of a struct (OpenAPI definition name, e.g. `io.k8s.api.core.v1.Container`). */
  name: 'x-orch-name',
  /** The field cannot be changed by an update ("Cannot be updated"). */
  immutable: 'x-orch-immutable',
  /** A named string format validated with Kubernetes' messages (see NameFormat). */
  format: 'x-orch-format',
  /** Special wire/JSON representation (see SpecialType). */
  special: 'x-orch-special',
  /** Scalar protobuf wire type where JSON's type is not enough (int32, int64, double). */
  protoType: 'x-orch-proto-type',
  /** On map<string, []string> fields: the protobuf wrapper message holding the list. */
  protoWrapper: 'x-orch-proto-wrapper',
  /** Validation of a string value as a percent or integer (IntOrString fields). */
  nonNegative: 'x-orch-non-negative',
  /**
   * A field flat in JSON that protobuf carries inside an embedded message (a Go struct inlined into
   * its parent: `Probe.Handler`, `Volume.VolumeSource`, ...); see {@link inlined}.
   */
  protoEmbedded: 'x-orch-proto-embedded',
  /** The zero value ("", 0 or false) means the field is unset (see FieldOptions.omitZero). */
  omitZero: 'x-orch-omit-zero',
  /**
   * On a list of a custom resource: its items are unique, whole (`[]`, x-kubernetes-list-type set)
   * or by the key fields named (list-type map), as Kubernetes validates custom resources' lists.
   */
  uniqueBy: 'x-orch-unique-by',
  /**
   * On the root of a custom resource's schema: the CustomResourceDefinition it comes from. Such a
   * schema has no strategic merge metadata (custom resources take JSON and merge patches and apply).
   */
  customResource: 'x-orch-custom-resource',
  /**
   * On a node of a custom resource's schema: its oneOf, anyOf, allOf and not, as plain JSON Schema of
   * value validations, checked by the validator only (other engines read the node without them).
   */
  valueValidation: 'x-orch-value-validation',
  /**
   * The feature gate a field belongs to: while the gate is off, writes drop the field unless the stored
   * object already uses the feature (Kubernetes' dropDisabledFields).
   */
  featureGate: 'x-orch-feature-gate',
} as const;

/** String formats validated with Kubernetes' rules and messages. */
export type NameFormat =
  | 'dns1123-label'
  | 'dns1123-subdomain'
  | 'dns1035-label'
  | 'c-identifier'
  | 'env-var-name'
  | 'qualified-name'
  | 'label-value'
  | 'port-name'
  | 'ip'
  | 'quantity'
  | 'cron';

/** Values with a representation of their own in JSON and protobuf. */
export type SpecialType =
  'time' | 'microTime' | 'intOrString' | 'quantity' | 'rawExtension' | 'fieldsV1' | 'bytes';

export type PatchStrategy = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

/** What can be said of any field. */
export interface FieldOptions {
  /** Kubernetes' protobuf field number. Every field of every struct has one. */
  proto?: number;
  description?: string;
  /** Default applied when the field is absent (pointer semantics: an explicit zero is kept). */
  default?: unknown;
  /** Rejected on update when changed. */
  immutable?: boolean;
  /**
   * The zero value ("", 0, false, or for a list or map no entry) means unset, as for a Kubernetes
   * field that Go holds as a plain value (not a pointer) and omits from JSON when zero (a list or
   * map: when empty). Maps are declared so by default (see `map`). Go's protobuf marshalers write such fields
   * even when zero; read from protobuf, a zero is dropped, as Kubernetes' JSON omits it. Fields where
   * a zero is meant (Go pointers: replicas 0, enableServiceLinks false, storageClassName "") must not
   * be marked.
   */
  omitZero?: boolean;
  /**
   * The feature gate of the field: with the gate off, a create or update drops it, unless the object
   * being updated already uses some field of the same gate (Kubernetes' dropDisabledFields).
   */
  featureGate?: string;
}

export interface StringOptions extends FieldOptions {
  format?: NameFormat;
  enum?: readonly string[];
  pattern?: string;
  maxLength?: number;
  minLength?: number;
}

export interface NumberOptions extends FieldOptions {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

export interface ListOptions extends FieldOptions {
  patchMergeKey?: string;
  patchStrategy?: PatchStrategy;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: readonly string[];
  minItems?: number;
  maxItems?: number;
}

export interface MapOptions extends FieldOptions {
  mapType?: 'granular' | 'atomic';
  /** protobuf wrapper message name for map<string, []string> values */
  protoWrapper?: string;
}

export interface StructOptions extends FieldOptions {
  patchStrategy?: PatchStrategy;
  mapType?: 'granular' | 'atomic';
}

/** Brand of a field that must be present (Kubernetes' "Required value"). */
declare const RequiredBrand: unique symbol;
export type Required<T extends TSchema> = T & { readonly [RequiredBrand]: true };

/** Symbol-keyed marks survive TypeBox's shallow copies (object spread copies own symbol keys). */
const RequiredMark = Symbol.for('orch.required');
const HooksMark = Symbol.for('orch.hooks');
const TypeDescriptionMark = Symbol.for('orch.typeDescription');

/** Marks a field required: present in the TypeScript type and validated as "Required value". */
export function required<T extends TSchema>(
  schema: T,
  options: FieldOptions & StructOptions = {},
): Required<T> {
  const node = field(schema, options);
  marks(node)[RequiredMark] = true;
  return node as Required<T>;
}

/** True when a node was wrapped with {@link required}. */
export function isRequired(schema: TSchema): boolean {
  return marks(schema)[RequiredMark] === true;
}

function marks(schema: TSchema): Record<symbol, unknown> {
  return schema as unknown as Record<symbol, unknown>;
}

function annotate<T extends TSchema>(schema: T, options: FieldOptions | undefined): T {
  if (!options) return schema;
  const node = schema as Record<string, unknown>;
  if (options.proto !== undefined) node[OrchKeyword.proto] = options.proto;
  if (options.description !== undefined) node.description = options.description;
  if (options.default !== undefined) node.default = options.default;
  if (options.immutable) node[OrchKeyword.immutable] = true;
  if (options.omitZero) node[OrchKeyword.omitZero] = true;
  if (options.featureGate !== undefined) node[OrchKeyword.featureGate] = options.featureGate;
  return schema;
}

function copy<T extends TSchema>(schema: T): T {
  // Shared nodes (structs used in many places) are cloned shallowly so per-field annotations such as
  // the protobuf number never leak from one use to another.
  const clone = Object.create(Object.getPrototypeOf(schema)) as T;
  for (const key of Reflect.ownKeys(schema)) {
    (clone as Record<string | symbol, unknown>)[key] = (schema as Record<string | symbol, unknown>)[key];
  }
  return clone;
}

// ---------------------------------------------------------------------------------------------
// Scalars

export function str(options: StringOptions = {}): TString {
  const node = Type.String() as TString & Record<string, unknown>;
  if (options.format) node[OrchKeyword.format] = options.format;
  if (options.enum) node.enum = [...options.enum];
  if (options.pattern) node.pattern = options.pattern;
  if (options.maxLength !== undefined) node.maxLength = options.maxLength;
  if (options.minLength !== undefined) node.minLength = options.minLength;
  return annotate(node, options);
}

/** A string restricted to the given values, typed as their union. */
export function oneOf<const V extends readonly string[]>(
  values: V,
  options: FieldOptions = {},
): TUnsafe<V[number]> {
  return annotate(Type.Unsafe<V[number]>({ type: 'string', enum: [...values] }), options);
}

export function int32(options: NumberOptions = {}): TInteger {
  return integer('int32', options);
}

export function int64(options: NumberOptions = {}): TInteger {
  return integer('int64', options);
}

function integer(format: 'int32' | 'int64', options: NumberOptions): TInteger {
  const node = Type.Integer({ format }) as TInteger & Record<string, unknown>;
  node[OrchKeyword.protoType] = format;
  if (options.minimum !== undefined) node.minimum = options.minimum;
  if (options.maximum !== undefined) node.maximum = options.maximum;
  if (options.exclusiveMinimum !== undefined) node.exclusiveMinimum = options.exclusiveMinimum;
  return annotate(node, options);
}

export function double(options: NumberOptions = {}): TNumber {
  const node = Type.Number({ format: 'double' }) as TNumber & Record<string, unknown>;
  node[OrchKeyword.protoType] = 'double';
  if (options.minimum !== undefined) node.minimum = options.minimum;
  if (options.maximum !== undefined) node.maximum = options.maximum;
  return annotate(node, options);
}

export function bool(options: FieldOptions = {}): TBoolean {
  return annotate(Type.Boolean(), options);
}

// ---------------------------------------------------------------------------------------------
// Values with their own representation

function special<T extends TSchema>(schema: T, kind: SpecialType, options: FieldOptions): T {
  (schema as Record<string, unknown>)[OrchKeyword.special] = kind;
  return annotate(schema, options);
}

/** meta/v1 Time: RFC 3339 with second precision in JSON; {seconds, nanos} in protobuf. */
export function time(options: FieldOptions = {}): TString {
  return special(Type.String({ format: 'date-time' }), 'time', options);
}

/** meta/v1 MicroTime: RFC 3339 with microseconds. */
export function microTime(options: FieldOptions = {}): TString {
  return special(Type.String({ format: 'date-time' }), 'microTime', options);
}

export type IntOrString = number | string;

/** util/intstr IntOrString. */
export function intOrString(
  options: FieldOptions & { nonNegative?: boolean } = {},
): TUnion<[TInteger, TString]> {
  const node = Type.Union([Type.Integer(), Type.String()], {
    'x-kubernetes-int-or-string': true,
  }) as TUnion<[TInteger, TString]> & Record<string, unknown>;
  if (options.nonNegative) node[OrchKeyword.nonNegative] = true;
  return special(node, 'intOrString', options);
}

/** api/resource Quantity: a string in canonical form ("100m", "1Gi"); numbers are accepted on input. */
export function quantity(options: FieldOptions = {}): TString {
  const node = Type.Unsafe<string>({
    anyOf: [{ type: 'string' }, { type: 'number' }],
    'x-kubernetes-int-or-string': true,
  }) as unknown as TString & Record<string, unknown>;
  node[OrchKeyword.format] = 'quantity';
  return special(node, 'quantity', options);
}

/** Base64 encoded bytes ([]byte in Go). */
export function bytes(options: FieldOptions = {}): TString {
  return special(Type.String({ format: 'byte' }), 'bytes', options);
}

/** runtime.RawExtension: an embedded object kept as it is. */
export function rawExtension(options: FieldOptions = {}): TUnknown {
  return special(
    Type.Unknown({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-embedded-resource': true,
    }),
    'rawExtension',
    options,
  );
}

/** meta/v1 FieldsV1: the JSON field set of a managedFields entry. */
export function fieldsV1(options: FieldOptions = {}): TRecord<TString, TUnknown> {
  return special(
    Type.Record(Type.String(), Type.Unknown(), { 'x-kubernetes-preserve-unknown-fields': true }),
    'fieldsV1',
    options,
  );
}

// ---------------------------------------------------------------------------------------------
// Containers

export function list<T extends TSchema>(items: T, options: ListOptions = {}): TArray<T> {
  const node = Type.Array(items) as TArray<T> & Record<string, unknown>;
  if (options.patchMergeKey) node['x-kubernetes-patch-merge-key'] = options.patchMergeKey;
  if (options.patchStrategy) node['x-kubernetes-patch-strategy'] = options.patchStrategy;
  if (options.listType) node['x-kubernetes-list-type'] = options.listType;
  if (options.listMapKeys) node['x-kubernetes-list-map-keys'] = [...options.listMapKeys];
  if (options.minItems !== undefined) node.minItems = options.minItems;
  if (options.maxItems !== undefined) node.maxItems = options.maxItems;
  return annotate(node, options);
}

/**
 * A map field. Empty means unset unless `omitZero: false`: every map of Kubernetes' types is a Go map
 * its JSON omits when empty (omitempty), so `labels: {}` is stored as no labels.
 */
export function map<T extends TSchema>(values: T, options: MapOptions = {}): TRecord<TString, T> {
  const node = Type.Record(Type.String(), values) as TRecord<TString, T> & Record<string, unknown>;
  if (options.mapType) node['x-kubernetes-map-type'] = options.mapType;
  if (options.protoWrapper) node[OrchKeyword.protoWrapper] = options.protoWrapper;
  return annotate(node, { ...options, omitZero: options.omitZero ?? true });
}

/** A map of string to string (labels, annotations, nodeSelector, data). */
export function stringMap(options: MapOptions = {}): TRecord<TString, TString> {
  return map(Type.String(), options);
}

type StructProps<P extends Record<string, TSchema>> = {
  [K in keyof P]: P[K] extends { readonly [RequiredBrand]: true } ? P[K] : TOptional<P[K]>;
};

/** Hooks a struct may carry beyond its fields: defaulting and validation that one field cannot express. */
export interface StructHooks<T> {
  /** Sets defaults that depend on other fields (after the schema defaults of this struct were applied). */
  defaults?: (value: T) => void;
  /** Cross-field rules; returns errors relative to `path` (see validation/field-error). */
  validate?: (value: T, path: string, context: ValidationContext) => FieldErrorLike[];
}

/** What rules of nested structs may need to know about the object they are in. */
export interface ValidationContext {
  /** The object being validated (a whole kind instance). */
  readonly root: unknown;
  /** The stored object on update; undefined on create. */
  readonly old?: unknown;
}

/** Structural shape of a field error; the validation module builds them. */
export interface FieldErrorLike {
  type: string;
  field: string;
  badValue?: unknown;
  detail?: string;
}

/** The defaulting/validation hooks declared on a struct node, if any. */
export function structHooks(schema: TSchema): StructHooks<unknown> | undefined {
  return marks(schema)[HooksMark] as StructHooks<unknown> | undefined;
}

export type StructSchema<P extends Record<string, TSchema>> = TObject<StructProps<P>>;

/**
 * A named struct (a Go struct / protobuf message / OpenAPI definition).
 * `name` is the OpenAPI definition name, e.g. `io.k8s.api.core.v1.Container`; the protobuf message
 * name is derived from it (`k8s.io.api.core.v1.Container`).
 */
export function struct<P extends Record<string, TSchema>>(
  name: string,
  props: P,
  options: StructOptions & StructHooks<Static<StructSchema<P>>> = {},
): StructSchema<P> {
  const properties: Record<string, TSchema> = {};
  for (const [key, value] of Object.entries(props)) {
    properties[key] = isRequired(value) ? value : Type.Optional(value);
  }
  const node = Type.Object(properties, { additionalProperties: true }) as unknown as StructSchema<P> &
    Record<string, unknown>;
  delete node.additionalProperties;
  node[OrchKeyword.name] = name;
  if (options.patchStrategy) node['x-kubernetes-patch-strategy'] = options.patchStrategy;
  if (options.mapType) node['x-kubernetes-map-type'] = options.mapType;
  if (options.defaults || options.validate) {
    marks(node)[HooksMark] = { defaults: options.defaults, validate: options.validate };
  }
  if (options.description !== undefined) marks(node)[TypeDescriptionMark] = options.description;
  return annotate(node, options);
}

/**
 * What a named struct is, as declared with it: not the description of a field that holds one (what
 * that field is for), which {@link field} puts on its copy in place of the struct's own.
 */
export function typeDescription(schema: TSchema): string | undefined {
  return marks(schema)[TypeDescriptionMark] as string | undefined;
}

/**
 * Uses a declared struct (or any node) as a field, with per-use options (protobuf number, description,
 * default, immutability). The shared declaration is not modified.
 */
export function field<T extends TSchema>(schema: T, options: FieldOptions & StructOptions = {}): T {
  const node = copy(schema);
  if (options.patchStrategy)
    (node as Record<string, unknown>)['x-kubernetes-patch-strategy'] = options.patchStrategy;
  return annotate(node, options);
}

/** Where an embedded message sits in its parent: the Go field name, its number and message name. */
export interface ProtoEmbedding {
  field: string;
  proto: number;
  message: string;
}

/**
 * Marks every field of `props` as travelling inside the embedded message `embedding` on the wire;
 * each field's own `proto` is its number inside that message.
 */
export function inlined<P extends Record<string, TSchema>>(embedding: ProtoEmbedding, props: P): P {
  const out: Record<string, TSchema> = {};
  for (const [key, node] of Object.entries(props)) {
    const copy = field(node);
    (copy as Record<string, unknown>)[OrchKeyword.protoEmbedded] = { ...embedding };
    out[key] = copy;
  }
  return out as P;
}
