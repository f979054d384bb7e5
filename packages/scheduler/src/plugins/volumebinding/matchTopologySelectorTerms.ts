import type { TopologySelectorTerm } from '@orch/api';

/**
 * Whether labels satisfy a StorageClass's allowedTopologies (Kubernetes' MatchTopologySelectorTerms):
 * no terms allow everything; otherwise a term whose every requirement holds (the label has one of
 * the values) allows; an empty term allows nothing.
 */
export function matchTopologySelectorTerms(
  terms: readonly TopologySelectorTerm[] | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (!terms || terms.length === 0) return true;
  return terms.some((term) => {
    const exprs = term.matchLabelExpressions ?? [];
    return (
      exprs.length > 0 &&
      exprs.every((r) => Object.hasOwn(labels, r.key) && (r.values ?? []).includes(labels[r.key]!))
    );
  });
}
