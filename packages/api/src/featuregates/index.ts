export { compileGatedFields, type GatedFields, type GateEnabled } from './compile-gated-fields';
