import { newQuantity, parseQuantity, type Quantity } from '../util/quantity';

/** Amounts by resource name (Kubernetes' ResourceList), parsed. */
export type ResourceList = Record<string, Quantity>;

/** A zero that prints as `0`. */
export const zeroQuantity = (): Quantity => newQuantity(0, 'DecimalSI');

/** A resource list as objects store it (quantity strings or numbers), parsed. */
export function parseResourceList(list: Record<string, unknown> | undefined | null): ResourceList {
  const out: ResourceList = {};
  for (const [name, value] of Object.entries(list ?? {})) {
    if (value === undefined || value === null) continue;
    out[name] = parseQuantity(String(value));
  }
  return out;
}

/** The list as objects store it: each quantity in its canonical text. */
export function formatResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(list).sort()) out[name] = list[name]!.toString();
  return out;
}

/** a + b, resource by resource. */
export function addResourceLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [name, q] of Object.entries(b)) out[name] = out[name]?.add(q) ?? q;
  return out;
}

/** a - b for the resources of a, a result below zero taken as zero (SubtractWithNonNegativeResult). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of Object.entries(a)) {
    const other = b[name];
    const diff = other ? q.sub(other) : q;
    out[name] = diff.sign() < 0 ? zeroQuantity() : diff;
  }
  return out;
}

/** The entries of `list` named in `names`. */
export function maskResourceList(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const name of names) if (list[name]) out[name] = list[name]!;
  return out;
}

/** The list without its zero entries. */
export function removeZeros(list: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [name, q] of Object.entries(list)) if (!q.isZero()) out[name] = q;
  return out;
}

/**
 * Whether every entry of `a` is at most its entry in `b` (entries `b` does not name are not limited),
 * and the names of those that exceed it, sorted (Kubernetes' quota.LessThanOrEqual).
 */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { ok: boolean; exceeded: string[] } {
  const exceeded = Object.keys(a)
    .filter((name) => b[name] !== undefined && a[name]!.cmp(b[name]!) > 0)
    .sort();
  return { ok: exceeded.length === 0, exceeded };
}

/** Whether a and b have the same names with equal amounts. */
export function resourceListsEqual(a: ResourceList, b: ResourceList): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every((name) => b[name] !== undefined && a[name]!.equal(b[name]!));
}

/** `name=amount` entries sorted by name, comma-joined, as quota messages print a list. */
export function prettyPrintResourceList(list: ResourceList): string {
  return Object.keys(list)
    .sort()
    .map((name) => `${name}=${list[name]!.toString()}`)
    .join(',');
}
