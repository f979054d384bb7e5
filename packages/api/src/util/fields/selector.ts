import { escapeFieldValue, FieldSelectorError, unescapeFieldValue } from './escape';

/** The selectable fields of one object, produced per kind: `metadata.name`, `status.phase`, ... */
export type FieldSet = Readonly<Record<string, string>>;

/** `=` (also written `==`) or `!=`. */
export type FieldOperator = '=' | '!=';

/** One term of a field selector; `value` is unescaped. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/** Rewrites a term, e.g. to convert a field label of an older version; may throw to reject it. */
export type FieldTransform = (field: string, value: string) => { field: string; value: string };

const hasOwn = Object.prototype.hasOwnProperty;

/** A parsed field selector (Kubernetes' fields.Selector). Immutable. */
export class FieldsSelector {
  private text: string | undefined;

  /** @internal use {@link parseFieldSelector} or {@link fieldSelectorFromSet}. */
  constructor(private readonly reqs: readonly FieldRequirement[]) {}

  /**
   * Whether the fields satisfy every term. A missing field reads as '' (so `spec.nodeName=`
   * selects unscheduled pods). Does not allocate.
   */
  matches(fields: FieldSet | undefined): boolean {
    const reqs = this.reqs;
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i]!;
      const v = fields !== undefined && hasOwn.call(fields, r.field) ? fields[r.field]! : '';
      if ((v === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }

  /** True when the selector selects everything. */
  empty(): boolean {
    return this.reqs.length === 0;
  }

  /** The terms, so that the apiserver can check every field is selectable for the kind. */
  requirements(): readonly FieldRequirement[] {
    return this.reqs;
  }

  /** The value `field` must equal, if a `field=value` term exists (fields.Selector.RequiresExactMatch). */
  requiresExactMatch(field: string): string | undefined {
    for (const r of this.reqs) if (r.field === field && r.operator === '=') return r.value;
    return undefined;
  }

  /** A selector with every term rewritten by `fn` (fields.Selector.Transform). */
  transform(fn: FieldTransform): FieldsSelector {
    return new FieldsSelector(
      this.reqs.map((r) => {
        const t = fn(r.field, r.value);
        return { field: t.field, operator: r.operator, value: t.value };
      }),
    );
  }

  /** Canonical form: `field=value` / `field!=value`, values escaped, joined with ','. */
  toString(): string {
    return (this.text ??= this.reqs
      .map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`)
      .join(','));
  }
}

const EVERYTHING = new FieldsSelector([]);

/** The field selector matching everything. */
export function everythingFields(): FieldsSelector {
  return EVERYTHING;
}

/** Splits at commas not preceded by an escaping backslash. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator found scanning left to right, preferring `!=`, then `==`, then `=` at a position. */
function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    if (term.startsWith('!=', i)) return { lhs: term.slice(0, i), op: '!=', rhs: term.slice(i + 2) };
    if (term.startsWith('==', i)) return { lhs: term.slice(0, i), op: '==', rhs: term.slice(i + 2) };
    if (term[i] === '=') return { lhs: term.slice(0, i), op: '=', rhs: term.slice(i + 1) };
  }
  return undefined;
}

/**
 * Parses a field selector (`metadata.name=web,status.phase!=Running`) as Kubernetes'
 * fields.ParseSelector: terms are sorted, empty terms skipped, values unescaped (`\,` `\=` `\\`),
 * field names kept verbatim. The empty string selects everything. Throws
 * {@link FieldSelectorError}: `invalid selector: 'x'; can't understand 'x'`, or the escape errors
 * of {@link unescapeFieldValue}.
 */
export function parseFieldSelector(selector: string): FieldsSelector {
  if (selector === '') return EVERYTHING;
  const parts = splitTerms(selector).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (t === undefined)
      throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value: unescapeFieldValue(t.rhs) });
  }
  return reqs.length === 0 ? EVERYTHING : new FieldsSelector(reqs);
}

/** A selector requiring every field of the set to equal its value, terms sorted by field. */
export function fieldSelectorFromSet(set: FieldSet | null | undefined): FieldsSelector {
  if (set === null || set === undefined) return EVERYTHING;
  const reqs = Object.keys(set)
    .sort()
    .map((field): FieldRequirement => ({ field, operator: '=', value: set[field]! }));
  return reqs.length === 0 ? EVERYTHING : new FieldsSelector(reqs);
}

/**
 * Checks that every field used is selectable for the kind; throws `field label not supported: x`
 * (Kubernetes' message for an unknown field label of a kind) for the first one that is not.
 */
export function checkSelectableFields(selector: FieldsSelector, selectable: ReadonlySet<string>): void {
  for (const r of selector.requirements()) {
    if (!selectable.has(r.field)) throw new FieldSelectorError(`field label not supported: ${r.field}`);
  }
}
