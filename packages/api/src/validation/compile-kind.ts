import type { TSchema } from '@sinclair/typebox';
import { isRequired } from '../schema/fields';
import type { KindDeclaration } from '../schema/kind';
import { compileDefaults } from '../defaulting/compile-defaults';
import { compileGatedFields, type GateEnabled } from '../featuregates/compile-gated-fields';
import type { FieldError } from './field-error';
import { compileImmutable } from './immutable';
import { validateObjectMeta, validateObjectMetaUpdate, type NameValidator } from './object-meta';
import { compilePrune } from './prune';
import { compileSchemaValidator, hasTypeErrors } from './schema-validator';
import { nodeShape, structFields } from './schema-node';
import { compileStructHooks } from './struct-hooks';

/** The per-kind functions derived from a declaration; each is compiled once. */
export interface CompiledKind {
  /** Decode-time normalization in place; returns the `unknown field "..."` messages of removed fields. */
  prune(obj: unknown): { unknown: string[] };
  /**
   * Applies the declared defaults in place (run after prune). Given `enabled`, a field of a gate that
   * is off gets no default (Kubernetes' defaulters check the gate); what `obj` already has is kept.
   */
  default(obj: unknown, enabled?: GateEnabled): void;
  /**
   * Drops the fields of feature gates that are off, unless `old` (the stored object of an update)
   * already uses them; see {@link GatedFields.drop}.
   */
  dropDisabledFields(obj: unknown, old: unknown, enabled: GateEnabled): void;
  /** Create validation: schema rules, ObjectMeta rules, then the structs' validate hooks. */
  validate(obj: unknown): FieldError[];
  /**
   * Update validation: ObjectMeta update rules, the full validation of the new object (hooks see
   * the stored object as `context.old`), immutable fields, and the kind's own validateUpdate (given
   * the server's feature gates as `enabled`).
   */
  validateUpdate(obj: unknown, old: unknown, enabled?: GateEnabled): FieldError[];
}

export interface CompileKindOptions {
  /** Name rule of the kind (ValidateNameFunc); RFC 1123 subdomain when not given. */
  nameValidation?: NameValidator;
}

const cache = new WeakMap<KindDeclaration, Map<NameValidator | undefined, CompiledKind>>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `make()`, evaluated on the first call and remembered. */
function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

function build(declaration: KindDeclaration, options: CompileKindOptions): CompiledKind {
  const schema = declaration.schema;
  // Each function is compiled on its first call: an apiserver serves every kind, most of them see no
  // request for a long time, and compiling all validators up front costs most of a second of
  // start-up and megabytes of generated code.
  const pruneFn = once(() => compilePrune(schema));
  const defaultFn = once(() => compileDefaults(schema));
  const schemaFn = once(() => compileSchemaValidator(schema));
  const hooksFn = once(() => compileStructHooks(schema));
  const immutableFn = once(() => compileImmutable(schema));
  const gatedFn = once(() => compileGatedFields(schema));
  const metaOptions = {
    namespaced: declaration.namespaced,
    nameValidation: options.nameValidation ?? declaration.nameValidation,
  };

  const zeroSpec = hasStructSpec(schema);

  const validate = (obj: unknown, old: unknown, out: FieldError[]): FieldError[] => {
    // A kind's spec is a struct value, never a pointer, in Kubernetes: an absent (or null) spec
    // decodes to the zero spec, and the spec's rules run on it ("spec.selector: Required value").
    // A spec declared required is reported as missing instead.
    const subject = zeroSpec && isObject(obj) && obj.spec === undefined ? { ...obj, spec: {} } : obj;
    const schemaErrors = schemaFn()(subject);
    for (let i = 0; i < schemaErrors.length; i++) out.push(schemaErrors[i]!);
    if (!isObject(subject)) return out;
    validateObjectMeta(subject.metadata, metaOptions, 'metadata', out);
    // Hooks assume declared types: a body with wrongly typed values is rejected as it stands.
    const hooks = hooksFn();
    if (hooks !== undefined && !hasTypeErrors(schemaErrors)) hooks(subject, { root: subject, old }, out);
    return out;
  };

  return {
    prune: (obj) => ({ unknown: pruneFn()(obj) }),
    default: (obj, enabled) => {
      const gated = enabled && gatedFn();
      if (!gated || !gated.hasDefaults || gated.gates.every(enabled)) return defaultFn()(obj);
      const used = gated.used(obj);
      defaultFn()(obj);
      gated.dropUnused(obj, used, enabled);
    },
    dropDisabledFields: (obj, old, enabled) => gatedFn()?.drop(obj, old, enabled),
    validate: (obj) => validate(obj, undefined, []),
    validateUpdate: (obj, old, enabled) => {
      const out: FieldError[] = [];
      if (isObject(obj) && isObject(old))
        validateObjectMetaUpdate(obj.metadata, old.metadata, 'metadata', out);
      validate(obj, old, out);
      if (isObject(obj) && isObject(old)) {
        immutableFn()?.(obj, old, out);
        const kindErrors = declaration.validateUpdate?.(obj as never, old as never, enabled) ?? [];
        for (const e of kindErrors) out.push(e as FieldError);
      }
      return out;
    },
  };
}

/** True when the kind declares an optional `spec` struct. */
function hasStructSpec(schema: TSchema): boolean {
  const spec = structFields(schema).find(([k]) => k === 'spec')?.[1];
  return spec !== undefined && nodeShape(spec) === 'struct' && !isRequired(spec);
}

/** The compiled functions of a kind, compiled on first use and cached per declaration and options. */
export function compileKind(declaration: KindDeclaration, options: CompileKindOptions = {}): CompiledKind {
  let byOptions = cache.get(declaration);
  if (byOptions === undefined) {
    byOptions = new Map();
    cache.set(declaration, byOptions);
  }
  let compiled = byOptions.get(options.nameValidation);
  if (compiled === undefined) {
    compiled = build(declaration, options);
    byOptions.set(options.nameValidation, compiled);
  }
  return compiled;
}
