import type { FieldError, KindDeclaration } from '@orch/api';

/** The functions derived from a declaration that the registry runs per object. */
export interface CompiledKind {
  /** Removes unknown fields and returns their paths (`spec.foo`). */
  prune(obj: unknown): string[];
  default(obj: unknown): void;
  validate(obj: unknown): FieldError[];
  validateUpdate(obj: unknown, old: unknown): FieldError[];
}

/** Placeholder until the declaration engine is wired: accepts everything as it is. */
export function compileKind(_decl: KindDeclaration<any>): CompiledKind {
  return {
    prune: () => [],
    default: () => undefined,
    validate: () => [],
    validateUpdate: () => [],
  };
}
