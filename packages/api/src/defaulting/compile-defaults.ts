import type { TSchema } from '@sinclair/typebox';
import { structHooks } from '../schema/fields';
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
  if (typeof value !== 'object' || value === null) return { key, make: () => value };
  const frozen = cloneDeep(value);
  return { key, make: () => cloneDeep(frozen) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
    const n = fns.length;
    const defaulter: NodeDefaulter = (value) => {
      if (!isObject(value)) return;
      for (let i = 0; i < constants.length; i++) {
        const c = constants[i]!;
        if (value[c.key] === undefined) value[c.key] = c.make();
      }
      if (hook !== undefined) hook(value);
      for (let i = 0; i < n; i++) {
        const v = value[keys[i]!];
        if (v !== undefined) fns[i]!(v);
      }
    };
    this.structs.set(id, defaulter);
    return defaulter;
  }
}

/** Compiles the defaulter of a declared node (usually a kind's root struct). */
export function compileDefaults(schema: TSchema): Defaulter {
  return new DefaultsCompiler().node(schema) ?? (() => undefined);
}
