/**
 * Path elements in their FieldsV1 spelling: `f:<field>` (a struct field or map key), `k:<json>` (an item
 * of an associative list, by its key fields), `v:<json>` (an item of a set), `i:<index>` (an item by
 * position). The spelling is the element's identity: field sets are keyed by it.
 */
export type PathElement = string;

/** A path from the root of an object: its elements in order. */
export type Path = readonly PathElement[];

/**
 * Field elements by name, made once: the same string each time, so maps and objects keyed by it hash it
 * once rather than per use. Names include map keys (labels, annotations), so the cache is bounded.
 */
const fieldElements = new Map<string, PathElement>();
const maxFieldElements = 20000;

export function fieldElement(name: string): PathElement {
  let pe = fieldElements.get(name);
  if (pe === undefined) {
    if (fieldElements.size >= maxFieldElements) fieldElements.clear();
    pe = 'f:' + name;
    fieldElements.set(name, pe);
  }
  return pe;
}

export function valueElement(value: unknown): PathElement {
  return 'v:' + JSON.stringify(value);
}

/** Whether a key of a FieldsV1 object is a path element. */
export function isPathElement(key: string): boolean {
  return key.length >= 2 && key[1] === ':' && 'fkvi'.includes(key[0]!);
}

function rank(pe: PathElement): number {
  switch (pe[0]) {
    case 'f':
      return 0;
    case 'k':
      return 1;
    case 'v':
      return 2;
    default:
      return 3;
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order Kubernetes keeps path elements in: field names, then keys, then values, then indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  // most levels hold field names only: same kind, compared as strings
  if (a[0] === b[0] && a[0] !== 'i') return compareStrings(a, b);
  const r = rank(a) - rank(b);
  if (r !== 0) return r;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return compareStrings(a, b);
}

/** A value as Kubernetes prints it inside a path (strings quoted, other values as JSON). */
function printValue(value: unknown): string {
  return JSON.stringify(value);
}

/** One element as Kubernetes prints paths in messages: `.spec`, `[name="c"]`, `[="a"]`, `[0]`. */
export function printPathElement(pe: PathElement): string {
  const body = pe.slice(2);
  switch (pe[0]) {
    case 'f':
      return '.' + body;
    case 'k': {
      const key = JSON.parse(body) as Record<string, unknown>;
      return (
        '[' +
        Object.keys(key)
          .map((k) => `${k}=${printValue(key[k])}`)
          .join(',') +
        ']'
      );
    }
    case 'v':
      return `[=${printValue(JSON.parse(body))}]`;
    default:
      return `[${body}]`;
  }
}

/** A path as Kubernetes prints it (`.spec.template.spec.containers[name="app"].image`). */
export function printPath(path: Path): string {
  let out = '';
  for (const pe of path) out += printPathElement(pe);
  return out;
}
