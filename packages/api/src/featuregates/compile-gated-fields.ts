import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../schema/fields';
import { listItems, mapValues, nodeShape, structFields, structIdentity } from '../validation/schema-node';

/** Whether a feature gate is on. */
export type GateEnabled = (gate: string) => boolean;

/**
 * The fields of a kind that belong to feature gates ({@link OrchKeyword.featureGate}), compiled once:
 * Kubernetes' dropDisabledFields, derived from the declaration instead of written per kind.
 */
export interface GatedFields {
  /** Every gate named by a field of the kind. */
  readonly gates: readonly string[];
  /** Whether some gated field has a declared default (a default the gate must hold back while off). */
  readonly hasDefaults: boolean;
  /** The gates whose fields `obj` sets somewhere. */
  used(obj: unknown): Set<string>;
  /** Removes from `obj` (in place) each field whose gate is off and not in `used`. */
  dropUnused(obj: unknown, used: ReadonlySet<string>, enabled: GateEnabled): void;
  /**
   * Removes from `obj` (in place) each field whose gate is off, unless `old` — the stored object an
   * update replaces — already uses that gate somewhere: an object keeps a feature it has, as Kubernetes
   * keeps, say, every container's startupProbe of a pod that had one.
   */
  drop(obj: unknown, old: unknown, enabled: GateEnabled): void;
}

/** How a struct leads to gated fields: the gate of each such field and the walk into its value. */
interface StructWalk {
  readonly fields: { key: string; gate: string | undefined; walk: Walk | undefined }[];
}

/** A walk over one value toward its gated fields. */
type Walk =
  { kind: 'struct'; struct: StructWalk } | { kind: 'list'; item: Walk } | { kind: 'map'; value: Walk };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field set to something: Kubernetes' "in use" (a non-nil pointer, a non-empty list). */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

class GatedFieldsCompiler {
  readonly gates = new Set<string>();
  hasDefaults = false;
  /** Walks by struct identity; a struct still being compiled is there with no fields yet (recursion). */
  private readonly structs = new Map<object, StructWalk | null>();

  node(schema: TSchema): Walk | undefined {
    switch (nodeShape(schema)) {
      case 'struct': {
        const struct = this.struct(schema);
        return struct && { kind: 'struct', struct };
      }
      case 'list': {
        const item = this.node(listItems(schema));
        return item && { kind: 'list', item };
      }
      case 'map': {
        const value = this.node(mapValues(schema));
        return value && { kind: 'map', value };
      }
      default:
        return undefined;
    }
  }

  private struct(schema: TSchema): StructWalk | undefined {
    const id = structIdentity(schema);
    if (this.structs.has(id)) return this.structs.get(id) ?? undefined;
    // a recursive struct (JSONSchemaProps) is walked only as far as its gated fields go
    this.structs.set(id, null);
    const fields: StructWalk['fields'] = [];
    for (const [key, node] of structFields(schema)) {
      const gate = (node as Record<string, unknown>)[OrchKeyword.featureGate] as string | undefined;
      if (gate !== undefined) {
        this.gates.add(gate);
        if ((node as Record<string, unknown>).default !== undefined) this.hasDefaults = true;
      }
      const walk = this.node(node);
      if (gate !== undefined || walk !== undefined) fields.push({ key, gate, walk });
    }
    const struct = fields.length ? { fields } : undefined;
    this.structs.set(id, struct ?? null);
    return struct;
  }
}

/** Adds to `used` the gates whose fields `value` sets. */
function collectUsed(walk: Walk, value: unknown, used: Set<string>): void {
  if (walk.kind === 'list') {
    if (Array.isArray(value)) for (const item of value) collectUsed(walk.item, item, used);
    return;
  }
  if (!isObject(value)) return;
  if (walk.kind === 'map') {
    for (const k in value) collectUsed(walk.value, value[k], used);
    return;
  }
  for (const f of walk.struct.fields) {
    const v = value[f.key];
    if (f.gate !== undefined && isSet(v)) used.add(f.gate);
    if (f.walk !== undefined && v !== undefined) collectUsed(f.walk, v, used);
  }
}

/** Deletes from `value` the fields of the gates in `off`. */
function dropOff(walk: Walk, value: unknown, off: ReadonlySet<string>): void {
  if (walk.kind === 'list') {
    if (Array.isArray(value)) for (const item of value) dropOff(walk.item, item, off);
    return;
  }
  if (!isObject(value)) return;
  if (walk.kind === 'map') {
    for (const k in value) dropOff(walk.value, value[k], off);
    return;
  }
  for (const f of walk.struct.fields) {
    if (!(f.key in value)) continue;
    if (f.gate !== undefined && off.has(f.gate)) delete value[f.key];
    else if (f.walk !== undefined) dropOff(f.walk, value[f.key], off);
  }
}

/** The gated fields of a kind's schema; undefined when no field names a gate. */
export function compileGatedFields(schema: TSchema): GatedFields | undefined {
  const compiler = new GatedFieldsCompiler();
  const root = compiler.node(schema);
  if (root === undefined || compiler.gates.size === 0) return undefined;
  const gates = [...compiler.gates].sort();
  const used = (obj: unknown): Set<string> => {
    const out = new Set<string>();
    collectUsed(root, obj, out);
    return out;
  };
  const dropUnused = (obj: unknown, inUse: ReadonlySet<string>, enabled: GateEnabled): void => {
    const off = new Set(gates.filter((g) => !enabled(g) && !inUse.has(g)));
    if (off.size > 0) dropOff(root, obj, off);
  };
  return {
    gates,
    hasDefaults: compiler.hasDefaults,
    used,
    dropUnused,
    drop(obj, old, enabled) {
      if (gates.every(enabled)) return;
      dropUnused(obj, old === undefined ? new Set() : used(old), enabled);
    },
  };
}
