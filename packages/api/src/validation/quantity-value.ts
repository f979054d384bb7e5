import { QuantityError, parseQuantity } from '../util/quantity';

/**
 * The quantity checks the engine needs, on top of util/quantity: the canonical text of a quantity
 * (as Kubernetes' JSON round trip prints it) and the problems of a string that is not one. Results
 * are memoized per input text: the same few quantities ("100m", "128Mi") appear in most objects.
 */

const NONE: readonly string[] = Object.freeze([]);
const MEMO_LIMIT = 4096;
const memo = new Map<string, string | readonly string[]>();

function lookup(text: string): string | readonly string[] {
  let r = memo.get(text);
  if (r !== undefined) return r;
  try {
    r = parseQuantity(text.trim()).toString();
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    r = [e.message];
  }
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, r);
  return r;
}

/** Problems with a quantity string, Kubernetes' messages; empty when valid. */
export function quantityErrors(value: string): readonly string[] {
  const r = lookup(value);
  return typeof r === 'string' ? NONE : r;
}

/** The canonical string of a quantity given as a string or a JSON number; undefined when not a quantity. */
export function canonicalQuantity(value: string | number): string | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const r = lookup(typeof value === 'number' ? String(value) : value);
  return typeof r === 'string' ? r : undefined;
}
