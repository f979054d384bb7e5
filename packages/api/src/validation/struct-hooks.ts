import type { TSchema } from '@sinclair/typebox';
import { structHooks, type ValidationContext } from '../schema/fields';
import type { FieldError } from './field-error';
import { evaluateGenerated } from './generated-code';
import { fieldPathMemo, indexPathMemo } from './path-memo';
import { listItems, mapValues, nodeShape, structFields, structIdentity } from './schema-node';

/**
 * Runs the `validate` hooks of every struct in an object (Kubernetes' cross-field rules), each with
 * its struct's path in Kubernetes' notation. Compiled once: only the structs that have a hook, or
 * contain structs that have one, are visited, and paths are built only along those.
 */
export type HookValidator = (obj: unknown, ctx: ValidationContext, out: FieldError[]) => void;

type NodeWalker = (value: unknown, path: string, ctx: ValidationContext, out: FieldError[]) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class HookCompiler {
  private readonly structs = new Map<object, NodeWalker | null>();
  private readonly pending = new Set<object>();

  node(schema: TSchema): NodeWalker | undefined {
    switch (nodeShape(schema)) {
      case 'struct':
        return this.struct(schema);
      case 'list': {
        const item = this.node(listItems(schema));
        if (item === undefined) return undefined;
        const indexPath = indexPathMemo();
        return (value, path, ctx, out) => {
          if (!Array.isArray(value)) return;
          for (let i = 0; i < value.length; i++) item(value[i], indexPath(path, i), ctx, out);
        };
      }
      case 'map': {
        const item = this.node(mapValues(schema));
        if (item === undefined) return undefined;
        return (value, path, ctx, out) => {
          if (!isObject(value)) return;
          for (const k in value) item(value[k], `${path}[${k}]`, ctx, out);
        };
      }
      default:
        return undefined;
    }
  }

  private struct(schema: TSchema): NodeWalker | undefined {
    const id = structIdentity(schema);
    const cached = this.structs.get(id);
    if (cached !== undefined) return cached ?? undefined;
    if (this.pending.has(id)) return (value, path, ctx, out) => this.structs.get(id)?.(value, path, ctx, out);
    this.pending.add(id);
    const keys: string[] = [];
    const paths: ((parent: string) => string)[] = [];
    const fns: NodeWalker[] = [];
    for (const [k, child] of structFields(schema)) {
      const fn = this.node(child);
      if (fn !== undefined) {
        keys.push(k);
        paths.push(fieldPathMemo(k));
        fns.push(fn);
      }
    }
    const hook = structHooks(schema)?.validate;
    this.pending.delete(id);
    if (fns.length === 0 && hook === undefined) {
      this.structs.set(id, null);
      return undefined;
    }
    const walker = generateWalker(keys, fns, paths, hook);
    this.structs.set(id, walker);
    return walker;
  }
}

function internalError(path: string, e: unknown): FieldError {
  return { type: 'InternalError', field: path, detail: e instanceof Error ? e.message : String(e) };
}

type Hook = NonNullable<ReturnType<typeof structHooks>>['validate'];

/**
 * The walker of one struct, generated so each field is read by its literal name (a property read
 * cached per object shape rather than a lookup by computed key). Only JSON string literals of field
 * names and indices are written into the source.
 */
function generateWalker(
  keys: readonly string[],
  fns: readonly NodeWalker[],
  paths: readonly ((parent: string) => string)[],
  hook: Hook,
): NodeWalker {
  const lines = [
    'return function walk(value, path, ctx, out) {',
    "if (typeof value !== 'object' || value === null || Array.isArray(value)) return;",
  ];
  if (hook !== undefined) {
    // A rule that throws on an unexpected value is reported as an internal error of its struct.
    lines.push(
      'let errs;',
      'try { errs = hook(value, path, ctx); } catch (e) { errs = [internalError(path, e)]; }',
      'for (let i = 0; i < errs.length; i++) out.push(errs[i]);',
    );
  }
  lines.push('let v;');
  keys.forEach((k, i) => {
    lines.push(`v = value[${JSON.stringify(k)}]; if (v !== undefined) f${i}(v, p${i}(path), ctx, out);`);
  });
  lines.push('};');
  const decls = keys.map((_, i) => `const f${i} = fns[${i}], p${i} = paths[${i}];`);
  return evaluateGenerated<NodeWalker>([...decls, ...lines].join('\n'), { fns, paths, hook, internalError });
}

/** Compiles the hook walk of a declared node (usually a kind's root struct). */
export function compileStructHooks(schema: TSchema): HookValidator | undefined {
  const root = new HookCompiler().node(schema);
  if (root === undefined) return undefined;
  return (obj, ctx, out) => root(obj, '', ctx, out);
}
