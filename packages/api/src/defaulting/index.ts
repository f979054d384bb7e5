export { compileDefaults, type Defaulter } from './compile-defaults';
