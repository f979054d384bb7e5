import { statusErrors } from '../errors/status-error';

/**
 * How deeply objects and lists may nest in a request body or patch. Kubernetes' JSON decoder stops
 * at 10,000 levels; the server's merge, apply and YAML code walks objects recursively, so it takes
 * fewer, still far beyond any real object (a CRD's openAPIV3Schema nests a few dozen levels).
 */
export const MAX_NESTING_DEPTH = 1000;

/** The largest integer a decoded body can carry exactly (JavaScript numbers are doubles). */
const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/** Object keys the server cannot hold as data: `__proto__` names the prototype of a JavaScript object. */
const RESERVED_KEY = '__proto__';

type Problem = 'depth' | 'integer' | 'key';

/**
 * Checks a decoded request body or patch for what the server could not hold without losing or
 * changing it, and answers 400 BadRequest instead of storing something else:
 * - nesting deeper than {@link MAX_NESTING_DEPTH};
 * - an integer beyond ±2^53−1 (it would be stored rounded, and Go clients could no longer read a
 *   rounded int64), or a number too large to be finite (JSON's `1e400`); Kubernetes keeps int64s
 *   exactly, which JavaScript numbers cannot;
 * - a `__proto__` key, which JavaScript objects cannot keep as a plain key through every merge.
 * One iterative walk, so no nesting depth can overflow the stack here.
 */
export function checkDecoded(value: unknown, what: string): void {
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const v = stack.pop();
    const depth = depths.pop()!;
    if (typeof v === 'number') {
      if (outOfRange(v)) reject(value, what, 'integer');
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_NESTING_DEPTH) reject(value, what, 'depth');
    if (Array.isArray(v)) {
      for (const item of v) {
        stack.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key of Object.keys(v)) {
      if (key === RESERVED_KEY) reject(value, what, 'key');
      stack.push((v as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
}

function reject(value: unknown, what: string, problem: Problem): never {
  if (problem === 'depth') {
    throw statusErrors.badRequest(
      `error decoding ${what}: exceeded max depth: objects and lists nest more than ${MAX_NESTING_DEPTH} levels`,
    );
  }
  const at = pathOf(value, problem);
  if (problem === 'key') {
    throw statusErrors.badRequest(
      `error decoding ${what}: ${at === '' ? '' : `${at}: `}the key "${RESERVED_KEY}" is not supported`,
    );
  }
  throw statusErrors.badRequest(
    `error decoding ${what}: ${at === '' ? '' : `${at}: `}number out of range: integers must be between -${MAX_EXACT_INTEGER} and ${MAX_EXACT_INTEGER}`,
  );
}

/**
 * The field path of the first offending value (`spec.containers[0].x`), searched again once the walk
 * has found one; the depth is within the limit by then, so recursion is safe.
 */
function pathOf(value: unknown, problem: Exclude<Problem, 'depth'>): string {
  const search = (v: unknown, path: string): string | undefined => {
    if (typeof v === 'number') return problem === 'integer' && outOfRange(v) ? path : undefined;
    if (typeof v !== 'object' || v === null) return undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = search(v[i], `${path}[${i}]`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    for (const key of Object.keys(v)) {
      const child = path === '' ? key : `${path}.${key}`;
      if (problem === 'key' && key === RESERVED_KEY) return child;
      const found = search((v as Record<string, unknown>)[key], child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return search(value, '') ?? '';
}

/**
 * Numbers from 1e21 up are written with an exponent (`1.5e+300`), so a value that large came from a
 * floating-point literal and is kept as it was; below it, an integer beyond ±2^53−1 was written
 * out in digits that the double no longer holds.
 */
const EXPONENT_FORM = 1e21;

/** A number not held as it was sent: not finite, or an integer written in more digits than a double holds. */
function outOfRange(v: number): boolean {
  if (!Number.isFinite(v)) return true;
  const magnitude = Math.abs(v);
  return magnitude > MAX_EXACT_INTEGER && magnitude < EXPONENT_FORM && Number.isInteger(v);
}
