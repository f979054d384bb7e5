import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../schema/fields';
import { evaluateGenerated } from './generated-code';
import { canonicalQuantity } from './quantity-value';
import { canonicalMicroTimeString, canonicalTimeString } from './time-format';
import { listItems, mapValues, nodeShape, structFields, structIdentity } from './schema-node';

/**
 * Decode-time normalization, as decoding JSON into Kubernetes' Go structs does:
 * - fields a struct does not declare are removed and reported with the strict decoder's message,
 *   `unknown field "spec.template.spec.containers[0].imagex"` (map keys joined with '.', as the
 *   decoder's field stack prints them);
 * - fields set to null are removed (null means unset; a custom resource's field declared nullable
 *   keeps it), and so are fields declared omitZero holding their zero value ("", 0, false, an empty
 *   list or map): Go holds them as plain values, which its JSON omits when zero;
 * - quantities are rewritten in canonical form (numbers become strings), times in RFC 3339 UTC with
 *   second (Time) or microsecond (MicroTime) precision;
 * - map keys, preserve-unknown-fields contents (rawExtension, fieldsV1) and values of the wrong JSON
 *   type are left alone: the validator reports wrong types as FieldValueTypeInvalid errors.
 *
 * The declaration is walked once per struct, when the kind is compiled; pruning an object only runs
 * the functions generated for its structs.
 */
export type Pruner = (obj: unknown) => string[];

interface PruneState {
  /** Path segments from the root to the value being pruned (string fields, numeric indices). */
  readonly stack: (string | number)[];
  depth: number;
  readonly unknown: string[];
}

/** Normalizes one value in place; returns the replacement when the value itself is rewritten. */
type NodePruner = (value: unknown, st: PruneState) => unknown;

function decoderPath(st: PruneState, last: string): string {
  let s = '';
  for (let i = 0; i < st.depth; i++) {
    const seg = st.stack[i]!;
    if (typeof seg === 'number') s += `[${seg}]`;
    else s += s === '' ? seg : `.${seg}`;
  }
  return s === '' ? last : `${s}.${last}`;
}

function push(st: PruneState, seg: string | number): void {
  st.stack[st.depth++] = seg;
}

/** Removes an unknown field and records the strict decoder's message. */
function unknownField(obj: Record<string, unknown>, k: string, st: PruneState): void {
  st.unknown.push(`unknown field ${JSON.stringify(decoderPath(st, k))}`);
  delete obj[k];
}

/**
 * The pruner of one struct, generated: a switch over the declared field names (JSON string
 * literals) replaces a lookup per key; only names and indices are written into the source.
 */
function generateStructPruner(
  /** Each field: its name, its pruner, and the test (JavaScript, of `v`) for a value that unsets it. */
  fields: readonly (readonly [string, NodePruner | undefined, string])[],
): NodePruner {
  const fns: NodePruner[] = [];
  const cases = fields.map(([k, fn, unset]) => {
    const label = `case ${JSON.stringify(k)}:`;
    if (fn === undefined) return `${label} if (${unset}) delete value[k]; break;`;
    const i = fns.push(fn) - 1;
    return (
      `${label} if (${unset}) delete value[k]; ` +
      `else { st.stack[st.depth++] = k; const nv = f${i}(v, st); st.depth--; if (nv !== v) value[k] = nv; } break;`
    );
  });
  const source = [
    ...fns.map((_, i) => `const f${i} = fns[${i}];`),
    'return function prune(value, st) {',
    "if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;",
    'for (const k in value) {',
    'const v = value[k];',
    'switch (k) {',
    ...cases,
    'default: unknownField(value, k, st);',
    '}',
    '}',
    'return value;',
    '};',
  ].join('\n');
  return evaluateGenerated<NodePruner>(source, { fns, unknownField });
}

class PruneCompiler {
  private readonly structs = new Map<object, NodePruner>();
  private readonly pending = new Set<object>();

  node(schema: TSchema): NodePruner | undefined {
    switch (nodeShape(schema)) {
      case 'struct':
        return this.struct(schema);
      case 'list':
        return this.list(schema);
      case 'map':
        return this.map(schema);
      case 'quantity':
        return pruneQuantity;
      case 'time':
        return pruneTime;
      case 'microTime':
        return pruneMicroTime;
      default:
        return undefined;
    }
  }

  private struct(schema: TSchema): NodePruner {
    const id = structIdentity(schema);
    const cached = this.structs.get(id);
    if (cached !== undefined) return cached;
    if (this.pending.has(id)) {
      // A struct nested in itself: defer to the compiled function once it exists.
      return (value, st) => this.structs.get(id)!(value, st);
    }
    this.pending.add(id);
    const fields = structFields(schema).map(([k, child]) => [k, this.node(child), unsetTest(child)] as const);
    this.pending.delete(id);
    const pruner = generateStructPruner(fields);
    this.structs.set(id, pruner);
    return pruner;
  }

  private list(schema: TSchema): NodePruner | undefined {
    const item = this.node(listItems(schema));
    if (item === undefined) return undefined;
    return (value, st) => {
      if (!Array.isArray(value)) return value;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (v === null) continue;
        push(st, i);
        const nv = item(v, st);
        st.depth--;
        if (nv !== v) value[i] = nv;
      }
      return value;
    };
  }

  private map(schema: TSchema): NodePruner | undefined {
    const item = this.node(mapValues(schema));
    if (item === undefined) return undefined;
    return (value, st) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      const obj = value as Record<string, unknown>;
      for (const k in obj) {
        const v = obj[k];
        if (v === null) continue;
        push(st, k);
        const nv = item(v, st);
        st.depth--;
        if (nv !== v) obj[k] = nv;
      }
      return value;
    };
  }
}

/**
 * The test (as JavaScript source, of `v`) for the zero value of a field declared omitZero: a plain
 * value in Go, or a list or map Go's JSON omits when empty (omitempty). Only a value of the declared type
 * is dropped.
 */
function unsetTest(schema: TSchema): string {
  const zero = omittedZero(schema);
  // a custom resource's nullable field keeps an explicit null (it is neither pruned nor defaulted)
  const nullUnset = (schema as { nullable?: unknown }).nullable === true ? undefined : 'v === null';
  if (zero === undefined) return nullUnset ?? 'false';
  return nullUnset === undefined ? zero : `${nullUnset} || ${zero}`;
}

function omittedZero(schema: TSchema): string | undefined {
  const n = schema as Record<string, unknown>;
  if (!n[OrchKeyword.omitZero]) return undefined;
  switch (n.type) {
    case 'string':
      return "v === ''";
    case 'integer':
    case 'number':
      return 'v === 0';
    case 'boolean':
      return 'v === false';
    case 'array':
      return '(Array.isArray(v) && v.length === 0)';
    case 'object':
      // maps only: an empty struct is a value (`securityContext: {}`)
      return n.patternProperties !== undefined || typeof n.additionalProperties === 'object'
        ? '(v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)'
        : undefined;
    default:
      return undefined;
  }
}

function pruneQuantity(value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  return canonicalQuantity(value) ?? value;
}

function pruneTime(value: unknown): unknown {
  return typeof value === 'string' ? (canonicalTimeString(value) ?? value) : value;
}

function pruneMicroTime(value: unknown): unknown {
  return typeof value === 'string' ? (canonicalMicroTimeString(value) ?? value) : value;
}

/** Compiles the pruner of a declared node (usually a kind's root struct). */
export function compilePrune(schema: TSchema): Pruner {
  const root = new PruneCompiler().node(schema);
  return (obj) => {
    const st: PruneState = { stack: [], depth: 0, unknown: [] };
    if (root !== undefined) root(obj, st);
    return st.unknown;
  };
}
