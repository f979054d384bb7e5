import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../schema/fields';
import { childNode } from './schema-node';

type Node = Record<string, unknown>;

function unescapePointer(segment: string): string {
  return segment.indexOf('~') < 0 ? segment : segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The Go type name of a declared struct: `Container` for `io.k8s.api.core.v1.Container`. */
function structName(node: TSchema): string | undefined {
  const name = (node as Node)[OrchKeyword.name];
  return typeof name === 'string' ? name.slice(name.lastIndexOf('.') + 1) : undefined;
}

/**
 * The Go type a declared node decodes into, as reflect prints it (`int32`, `[]v1.Container`,
 * `map[string]string`, `v1.ObjectMeta`); undefined for types with their own JSON decoding
 * (quantities, times, int-or-strings, embedded objects), whose errors are their own. Declarations
 * do not name Go's string types, so a field Go holds as one (`RestartPolicy`) is named `string`.
 */
function goType(node: TSchema): string | undefined {
  const n = node as Node;
  const special = n[OrchKeyword.special];
  if (special === 'bytes') return '[]uint8';
  if (special !== undefined) return undefined;
  const name = n[OrchKeyword.name];
  if (typeof name === 'string') {
    const parts = name.split('.');
    return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  switch (n.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return n.format === 'int32' ? 'int32' : n.format === 'int64' ? 'int64' : undefined;
    case 'number':
      return n.format === 'double' ? 'float64' : undefined;
    case 'array': {
      const items = goType(n.items as TSchema);
      return items === undefined ? undefined : `[]${items}`;
    }
    case 'object': {
      const pattern = n.patternProperties as Record<string, TSchema> | undefined;
      const values = pattern ? Object.values(pattern)[0] : (n.additionalProperties as TSchema | undefined);
      const value = values && typeof values === 'object' ? goType(values) : undefined;
      return value === undefined ? undefined : `map[string]${value}`;
    }
    default:
      return undefined;
  }
}

/**
 * How Go's JSON decoder names a decoded JSON value in `json: cannot unmarshal <value> into ...`:
 * `string`, `number`, `bool`, `array`, `object` (or `null`).
 */
export function jsonValueName(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'array';
  switch (typeof data) {
    case 'boolean':
      return 'bool';
    case 'string':
    case 'number':
      return typeof data;
    default:
      return 'object';
  }
}

/** The value a type error names: a number for an integer field is refused with its text (`number 1.5`). */
function jsonKind(data: unknown, target: TSchema): string {
  const name = jsonValueName(data);
  return name === 'number' && (target as Node).type === 'integer' ? `number ${String(data)}` : name;
}

/**
 * The message Kubernetes' JSON decoder gives for a value of the wrong JSON type at `pointer` (a JSON
 * pointer, as ajv reports it) in an object of the declared struct `root`: `json: cannot unmarshal
 * string into Go struct field DeploymentSpec.spec.replicas of type int32` — the innermost struct
 * holding the field, the path of struct fields from the root (list indices and map keys left out),
 * and the field's Go type. Undefined where the declarations do not give the Go type exactly.
 */
export function goDecodeError(root: TSchema, pointer: string, data: unknown): string | undefined {
  if (pointer === '') return undefined;
  let node = root;
  let struct: string | undefined;
  const fields: string[] = [];
  for (const segment of pointer.slice(1).split('/').map(unescapePointer)) {
    const next = childNode(node, segment);
    if (next === undefined) return undefined;
    if (next.shape === 'field') {
      struct = structName(node);
      fields.push(segment);
    }
    node = next.node;
  }
  const type = goType(node);
  if (struct === undefined || type === undefined) return undefined;
  return `json: cannot unmarshal ${jsonKind(data, node)} into Go struct field ${struct}.${fields.join('.')} of type ${type}`;
}
