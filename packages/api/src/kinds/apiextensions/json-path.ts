/**
 * The simple JSON paths of CRDs (`.spec.replicas`, `.status.conditions[0].type`, `.metadata.labels.app`):
 * what the scale subresource's paths name.
 */
export function jsonPathSegments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) !== null) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[3] ?? m[4] ?? '');
  }
  return out;
}

/** A step of a JSON path: a field or index, every member (`[*]`), or the list items a filter keeps. */
type Step =
  | { kind: 'key'; key: string | number }
  | { kind: 'all' }
  | { kind: 'filter'; path: (string | number)[]; op?: string; value?: unknown };

const stepPattern =
  /\.\*|\[\*\]|\[\?\(@((?:\.[^.[\]()=!<>\s]+|\[\d+\])*)\s*(?:(==|!=|<=|>=|<|>)\s*('[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|true|false))?\)\]|\.([^.[\]]+)|\[(-?\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;

function literal(text: string): unknown {
  if (text.startsWith("'") || text.startsWith('"')) return text.slice(1, -1);
  if (text === 'true' || text === 'false') return text === 'true';
  return Number(text);
}

/**
 * The steps of a JSON path as kubectl's templates read them: fields, indices, `[*]`, and filters
 * such as `[?(@.type=="Ready")]` (comparisons ==, !=, <, <=, >, >= with a string, number or boolean,
 * or the mere presence of a field).
 */
function jsonPathSteps(path: string): Step[] {
  const out: Step[] = [];
  stepPattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = stepPattern.exec(path)) !== null) {
    if (m[0] === '.*' || m[0] === '[*]') out.push({ kind: 'all' });
    else if (m[0].startsWith('[?(')) {
      const filter: Step = { kind: 'filter', path: jsonPathSegments(m[1] ?? '') };
      if (m[2] !== undefined && m[3] !== undefined) {
        filter.op = m[2];
        filter.value = literal(m[3]);
      }
      out.push(filter);
    } else if (m[4] !== undefined) out.push({ kind: 'key', key: m[4] });
    else if (m[5] !== undefined) out.push({ kind: 'key', key: Number(m[5]) });
    else out.push({ kind: 'key', key: m[6] ?? m[7] ?? '' });
  }
  return out;
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    default: {
      if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
      const [x, y] = [a as number | string, b as number | string];
      return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }
  }
}

function valueAt(obj: unknown, segments: readonly (string | number)[]): unknown {
  let cur: any = obj;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[seg as keyof typeof cur];
  }
  return cur;
}

/** Every value a JSON path reaches, in order (several through `[*]` and filters). */
export function jsonPathResults(obj: unknown, path: string): unknown[] {
  let current: unknown[] = [obj];
  for (const step of jsonPathSteps(path)) {
    const next: unknown[] = [];
    for (const cur of current) {
      if (cur === null || typeof cur !== 'object') continue;
      if (step.kind === 'key') {
        const key =
          typeof step.key === 'number' && step.key < 0 && Array.isArray(cur)
            ? cur.length + step.key
            : step.key;
        const v = (cur as Record<string | number, unknown>)[key];
        if (v !== undefined) next.push(v);
      } else {
        const members = Array.isArray(cur) ? cur : Object.values(cur);
        if (step.kind === 'all') next.push(...members);
        else
          for (const item of members) {
            const v = valueAt(item, step.path);
            if (step.op === undefined ? v !== undefined : compare(v, step.op, step.value)) next.push(item);
          }
      }
    }
    current = next;
  }
  return current;
}

/** The value at a JSON path (the first, where the path reaches several), undefined when none. */
export function getAtJSONPath(obj: unknown, path: string): unknown {
  return jsonPathResults(obj, path)[0];
}

/** Sets the value at a simple JSON path, making the objects on the way. */
export function setAtJSONPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = jsonPathSegments(path);
  let cur: any = obj;
  segs.forEach((seg, i) => {
    if (i === segs.length - 1) cur[seg] = value;
    else {
      if (cur[seg] === null || typeof cur[seg] !== 'object') cur[seg] = {};
      cur = cur[seg];
    }
  });
}
