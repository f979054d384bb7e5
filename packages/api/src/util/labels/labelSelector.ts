import { goQuote } from '../goQuote';
import { LabelSelectorError } from './errors';
import { LabelOperator, LabelRequirement, LabelSet, newRequirement } from './requirement';
import { everythingLabels, LabelsSelector, nothingLabels, selectorFromRequirements } from './selector';

/** The shape of a LabelSelector object (metav1.LabelSelector) as found in specs. */
export interface LabelSelectorLike {
  matchLabels?: Readonly<Record<string, string>> | null;
  matchExpressions?: readonly LabelSelectorRequirementLike[] | null;
}

/** One entry of matchExpressions. */
export interface LabelSelectorRequirementLike {
  key: string;
  operator: string;
  values?: readonly string[] | null;
}

const operators: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts a LabelSelector object to a selector as Kubernetes' LabelSelectorAsSelector does: a
 * missing (null/undefined) selector selects nothing, an empty one everything. Throws
 * {@link LabelSelectorError}: `"Foo" is not a valid label selector operator`, or the field errors
 * of invalid keys and values (`values: Invalid value: []string{"a"}: values set must be empty for
 * exists and does not exist`).
 */
export function labelSelectorAsSelector(ls: LabelSelectorLike | null | undefined): LabelsSelector {
  if (ls === null || ls === undefined) return nothingLabels();
  const matchLabels = ls.matchLabels ?? {};
  const exprs = ls.matchExpressions ?? [];
  const labelKeys = Object.keys(matchLabels);
  if (labelKeys.length + exprs.length === 0) return everythingLabels();
  const reqs: LabelRequirement[] = [];
  for (const k of labelKeys) reqs.push(newRequirement(k, '=', [matchLabels[k]!]));
  for (const expr of exprs) {
    const op = Object.prototype.hasOwnProperty.call(operators, expr.operator)
      ? operators[expr.operator]
      : undefined;
    if (op === undefined) {
      throw new LabelSelectorError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    }
    // Kubernetes copies the values into a nil slice: none at all reads as nil.
    const values = expr.values && expr.values.length > 0 ? expr.values : undefined;
    reqs.push(newRequirement(expr.key, op, values));
  }
  return selectorFromRequirements(reqs);
}

/**
 * The query-string form of a LabelSelector object (for `?labelSelector=`): canonical, requirements
 * sorted by key. Throws like {@link labelSelectorAsSelector}. A missing selector gives '' — callers
 * must treat "nothing" themselves, since no string selects nothing.
 */
export function labelSelectorToString(ls: LabelSelectorLike | null | undefined): string {
  return labelSelectorAsSelector(ls).toString();
}

/** A LabelSelector for display, as kubectl prints it: `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(ls: LabelSelectorLike | null | undefined): string {
  let s: string;
  try {
    s = labelSelectorAsSelector(ls).toString();
  } catch {
    return '<error>';
  }
  return s === '' ? '<none>' : s;
}

/**
 * A selector matching exactly the given labels (SelectorFromSet). Like Kubernetes it does not
 * validate keys or values; an empty or missing set selects everything.
 */
export function selectorFromSet(set: LabelSet | null | undefined): LabelsSelector {
  if (set === null || set === undefined) return everythingLabels();
  const reqs: LabelRequirement[] = [];
  for (const k of Object.keys(set)) reqs.push(new LabelRequirement(k, '=', [set[k]!]));
  return selectorFromRequirements(reqs);
}

/** Like {@link selectorFromSet} but validating keys and values (ValidatedSelectorFromSet). */
export function validatedSelectorFromSet(set: LabelSet | null | undefined): LabelsSelector {
  if (set === null || set === undefined) return everythingLabels();
  const reqs: LabelRequirement[] = [];
  for (const k of Object.keys(set)) reqs.push(newRequirement(k, '=', [set[k]!]));
  return selectorFromRequirements(reqs);
}

/** Labels as `a=b,c=d`, keys sorted (labels.Set.String). */
export function labelSetToString(set: LabelSet | null | undefined): string {
  if (set === null || set === undefined) return '';
  return Object.keys(set)
    .sort()
    .map((k) => `${k}=${set[k]}`)
    .join(',');
}

/** Labels for display as kubectl prints them: `a=b,c=d`, or `<none>` (labels.FormatLabels). */
export function formatLabels(set: LabelSet | null | undefined): string {
  const s = labelSetToString(set);
  return s === '' ? '<none>' : s;
}
