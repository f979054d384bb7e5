export * from './field-error';
export { compileKind, type CompiledKind, type CompileKindOptions } from './compile-kind';
export { compilePrune, type Pruner } from './prune';
export { parseStrictJSON, type StrictJSONResult } from './strict-json';
export { compileSchemaValidator, hasTypeErrors, type SchemaValidator } from './schema-validator';
export { compileStructHooks, type HookValidator } from './struct-hooks';
export { compileImmutable, semanticEqual, FIELD_IMMUTABLE, type ImmutableValidator } from './immutable';
export {
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateLabels,
  validateAnnotations,
  validateOwnerReferences,
  validateFinalizers,
  validateManagedFields,
  type NameValidator,
  type ObjectMetaOptions,
} from './object-meta';
export { invalidStatus, type InvalidStatus } from './invalid-status';
export { fieldPathOf } from './field-path';
export { jsonValueName } from './go-decode-error';
export { cronErrors, formatChecks } from './formats';
export { canonicalTimeString, canonicalMicroTimeString, isRFC3339 } from './time-format';
