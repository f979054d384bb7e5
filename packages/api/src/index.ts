export * from './schema/fields';
export * from './schema/kind';
export * from './meta';
export * from './kinds';
export * from './restmapping';
export * from './table';
export * from './openapi';
export * from './protobuf';
export * from './util';
export * from './patch';
export * from './managedfields';
export * from './quota';
export type * from './stats/summary';
export * as fieldErrors from './validation/field-error';
export type { FieldError, FieldErrorType } from './validation/field-error';
export {
  compileKind,
  parseStrictJSON,
  invalidStatus,
  jsonValueName,
  type CompiledKind,
  type StrictJSONResult,
} from './validation';
export { compileDefaults } from './defaulting';
export { compileGatedFields, type GatedFields, type GateEnabled } from './featuregates';
