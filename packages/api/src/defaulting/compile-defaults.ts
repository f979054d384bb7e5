import type { TSchema } from '@sinclair/typebox';
import { structHooks } from '../schema/fields';
import { evaluateGenerated } from '../validation/generated-code';
import { listItems, mapValues, nodeShape, structFields, structIdentity } from '../validation/schema-node';

/**
 * Defaulting compiled from a declaration, in the order of Kubernetes' generated defaulters
 * (SetObjectDefaults_X): for each struct, first its own defaults — the `default` keywords of absent
 * fields, then the struct's `defaults` hook (Kubernetes' SetDefaults_X) — and only then the structs
 * nested in it (present fields, items of lists and values of maps). A default value is deep-cloned
 * before it is set, and is then defaulted like any present value, so `strategy: {default: {}}` gets
 * the nested defaults of the strategy struct. Defaults apply to absent fields only: an explicit zero
 * is kept (pointer semantics); null fields must have been pruned before.
 */
export type Defaulter = (obj: unknown) => void;

type NodeDefaulter = (value: unknown) => void;

interface ConstantDefault {
  key: string;
  value: unknown;
  make: () => unknown;
}

function cloneDeep(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneDeep);
  const out: Record<string, unknown> = {};
  for (const k in value as Record<string, unknown>) out[k] = cloneDeep((value as Record<string, unknown>)[k]);
  return out;
}

function constant(key: string, value: unknown): ConstantDefault {
  if (typeof value !== 'object' || value === null) return { key, value, make: () => value };
  const frozen = cloneDeep(value);
  return { key, value, make: () => cloneDeep(frozen) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Hook = ((value: Record<string, unknown>) => void) | undefined;

function isLiteral(value: unknown): value is string | number | boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * The defaulter of one struct, generated so each field is read and set by its literal name (property
 * accesses cached per object shape rather than lookups by computed key). Only JSON literals of field
 * names and of scalar default values, and indices, are written into the source.
 */
function generateDefaulter(
  constants: readonly ConstantDefault[],
  hook: Hook,
  keys: readonly string[],
  fns: readonly NodeDefaulter[],
): NodeDefaulter {
  const lines = [
    'return function defaults(value) {',
    "if (typeof value !== 'object' || value === null || Array.isArray(value)) return;",
  ];
  constants.forEach((c, i) => {
    const prop = `value[${JSON.stringify(c.key)}]`;
    const made = isLiteral(c.value) ? JSON.stringify(c.value) : `make[${i}]()`;
    lines.push(`if (${prop} === undefined) ${prop} = ${made};`);
  });
  // A hook that throws on a malformed value leaves the struct as it is: validation reports the value.
  if (hook !== undefined) lines.push('try { hook(value); } catch { /* reported by validation */ }');
  lines.push('let v;');
  keys.forEach((k, i) => {
    lines.push(`v = value[${JSON.stringify(k)}]; if (v !== undefined) f${i}(v);`);
  });
  lines.push('};');
  const decls = keys.map((_, i) => `const f${i} = fns[${i}];`);
  return evaluateGenerated<NodeDefaulter>([...decls, ...lines].join('\n'), {
    fns,
    make: constants.map((c) => c.make),
    hook,
  });
}

class DefaultsCompiler {
  private readonly structs = new Map<object, NodeDefaulter | null>();
  private readonly pending = new Set<object>();

  node(schema: TSchema): NodeDefaulter | undefined {
    switch (nodeShape(schema)) {
      case 'struct':
        return this.struct(schema);
      case 'list': {
        const item = this.node(listItems(schema));
        if (item === undefined) return undefined;
        return (value) => {
          if (!Array.isArray(value)) return;
          for (let i = 0; i < value.length; i++) item(value[i]);
        };
      }
      case 'map': {
        const item = this.node(mapValues(schema));
        if (item === undefined) return undefined;
        return (value) => {
          if (!isObject(value)) return;
          for (const k in value) item(value[k]);
        };
      }
      default:
        return undefined;
    }
  }

  private struct(schema: TSchema): NodeDefaulter | undefined {
    const id = structIdentity(schema);
    const cached = this.structs.get(id);
    if (cached !== undefined) return cached ?? undefined;
    if (this.pending.has(id)) {
      // A struct nested in itself: defer to the compiled function once it exists.
      return (value) => this.structs.get(id)?.(value);
    }
    this.pending.add(id);
    const constants: ConstantDefault[] = [];
    const keys: string[] = [];
    const fns: NodeDefaulter[] = [];
    for (const [k, child] of structFields(schema)) {
      const def = (child as Record<string, unknown>).default;
      if (def !== undefined) constants.push(constant(k, def));
      const fn = this.node(child);
      if (fn !== undefined) {
        keys.push(k);
        fns.push(fn);
      }
    }
    const hook = structHooks(schema)?.defaults;
    this.pending.delete(id);
    if (constants.length === 0 && fns.length === 0 && hook === undefined) {
      this.structs.set(id, null);
      return undefined;
    }
    const defaulter = generateDefaulter(constants, hook, keys, fns);
    this.structs.set(id, defaulter);
    return defaulter;
  }
}

/** Compiles the defaulter of a declared node (usually a kind's root struct). */
export function compileDefaults(schema: TSchema): Defaulter {
  return new DefaultsCompiler().node(schema) ?? (() => undefined);
}
