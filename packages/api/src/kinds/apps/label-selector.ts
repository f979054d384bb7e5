import type { LabelSelector } from '../../meta/object-meta';

/**
 * Label selectors as the workload kinds use them: matching template labels and printing the selector in
 * the string form of Kubernetes' labels.Selector (`app=web,tier in (a,b),!canary`).
 */

interface Requirement {
  key: string;
  operator: string;
  values: string[];
}

function requirements(selector: LabelSelector): Requirement[] {
  const reqs: Requirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
    key,
    operator: '=',
    values: [value],
  }));
  for (const expr of selector.matchExpressions ?? []) {
    reqs.push({ key: expr.key, operator: expr.operator, values: [...new Set(expr.values ?? [])].sort() });
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Whether `labels` satisfy the selector; an absent selector selects nothing, an empty one everything. */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return false;
  const set = labels ?? {};
  return requirements(selector).every((req) => {
    const has = Object.prototype.hasOwnProperty.call(set, req.key);
    switch (req.operator) {
      case '=':
      case 'In':
        return has && req.values.includes(set[req.key]!);
      case 'NotIn':
        return !has || !req.values.includes(set[req.key]!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      default:
        return false;
    }
  });
}

/** True for a selector that has no requirement at all (it selects everything). */
export function selectorIsEmpty(selector: LabelSelector): boolean {
  return requirements(selector).length === 0;
}

/** The selector in string form; '' for an absent or empty selector. */
export function selectorString(selector: LabelSelector | undefined): string {
  if (!selector) return '';
  return requirements(selector)
    .map((req) => {
      switch (req.operator) {
        case '=':
          return `${req.key}=${req.values[0]}`;
        case 'In':
          return `${req.key} in (${req.values.join(',')})`;
        case 'NotIn':
          return `${req.key} notin (${req.values.join(',')})`;
        case 'Exists':
          return req.key;
        default:
          return `!${req.key}`;
      }
    })
    .join(',');
}

/** Kubernetes' FormatLabelSelector: the string form, `<none>` when it is empty. */
export function formatLabelSelector(selector: LabelSelector | undefined): string {
  return selectorString(selector) || '<none>';
}
