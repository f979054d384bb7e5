import type { KindDeclaration } from '../schema/kind';
import { compileDefaults } from '../defaulting/compile-defaults';
import type { FieldError } from './field-error';
import { compileImmutable } from './immutable';
import { validateObjectMeta, validateObjectMetaUpdate, type NameValidator } from './object-meta';
import { compilePrune } from './prune';
import { compileSchemaValidator, hasTypeErrors } from './schema-validator';
import { compileStructHooks } from './struct-hooks';

/** The per-kind functions derived from a declaration; each is compiled once. */
export interface CompiledKind {
  /** Decode-time normalization in place; returns the `unknown field "..."` messages of removed fields. */
  prune(obj: unknown): { unknown: string[] };
  /** Applies the declared defaults in place (run after prune). */
  default(obj: unknown): void;
  /** Create validation: schema rules, ObjectMeta rules, then the structs' validate hooks. */
  validate(obj: unknown): FieldError[];
  /**
   * Update validation: ObjectMeta update rules, the full validation of the new object (hooks see
   * the stored object as `context.old`), immutable fields, and the kind's own validateUpdate.
   */
  validateUpdate(obj: unknown, old: unknown): FieldError[];
}

export interface CompileKindOptions {
  /** Name rule of the kind (ValidateNameFunc); RFC 1123 subdomain when not given. */
  nameValidation?: NameValidator;
}

const cache = new WeakMap<KindDeclaration, Map<NameValidator | undefined, CompiledKind>>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function build(declaration: KindDeclaration, options: CompileKindOptions): CompiledKind {
  const schema = declaration.schema;
  const pruneFn = compilePrune(schema);
  const defaultFn = compileDefaults(schema);
  const schemaFn = compileSchemaValidator(schema);
  const hooksFn = compileStructHooks(schema);
  const immutableFn = compileImmutable(schema);
  const metaOptions = {
    namespaced: declaration.namespaced,
    nameValidation: options.nameValidation ?? declaration.nameValidation,
  };

  const validate = (obj: unknown, old: unknown, out: FieldError[]): FieldError[] => {
    const schemaErrors = schemaFn(obj);
    for (let i = 0; i < schemaErrors.length; i++) out.push(schemaErrors[i]!);
    if (!isObject(obj)) return out;
    validateObjectMeta(obj.metadata, metaOptions, 'metadata', out);
    // Hooks assume declared types: a body with wrongly typed values is rejected as it stands.
    if (hooksFn !== undefined && !hasTypeErrors(schemaErrors)) hooksFn(obj, { root: obj, old }, out);
    return out;
  };

  return {
    prune: (obj) => ({ unknown: pruneFn(obj) }),
    default: defaultFn,
    validate: (obj) => validate(obj, undefined, []),
    validateUpdate: (obj, old) => {
      const out: FieldError[] = [];
      if (isObject(obj) && isObject(old))
        validateObjectMetaUpdate(obj.metadata, old.metadata, 'metadata', out);
      validate(obj, old, out);
      if (isObject(obj) && isObject(old)) {
        immutableFn?.(obj, old, out);
        const kindErrors = declaration.validateUpdate?.(obj as never, old as never) ?? [];
        for (const e of kindErrors) out.push(e as FieldError);
      }
      return out;
    },
  };
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
