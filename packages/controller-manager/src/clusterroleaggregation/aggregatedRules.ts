import { labelSelectorAsSelector, type ClusterRole, type PolicyRule } from '@orch/api';

const RULE_FIELDS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** A rule's identity for comparison: a missing list and an empty one are the same. */
function ruleKey(rule: PolicyRule): string {
  return JSON.stringify(RULE_FIELDS.map((f) => rule[f] ?? []));
}

/** Whether two rule lists are the same rules in the same order (missing lists read as empty). */
export function sameRules(
  a: readonly PolicyRule[] | undefined,
  b: readonly PolicyRule[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => ruleKey(r) === ruleKey(y[i]!));
}

const byName = (a: ClusterRole, b: ClusterRole): number => {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The rules an aggregated ClusterRole holds, as Kubernetes' clusterrole-aggregation controller
 * computes them: for each of its selectors in turn, the cluster roles it selects (never the role
 * itself) sorted by name, their rules in order, each rule kept the first time it appears. Undefined
 * for a role without an aggregation rule. A selector that does not parse throws.
 */
export function aggregatedRules(
  role: ClusterRole,
  clusterRoles: readonly ClusterRole[],
): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!role.aggregationRule) return undefined;
  const name = role.metadata?.name;
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const selector of selectors ?? []) {
    const matcher = labelSelectorAsSelector(selector);
    const selected = clusterRoles
      .filter((r) => r.metadata?.name !== name && matcher.matches(r.metadata?.labels ?? {}))
      .sort(byName);
    for (const other of selected) {
      for (const rule of other.rules ?? []) {
        const key = ruleKey(rule);
        if (seen.has(key)) continue;
        seen.add(key);
        rules.push(rule);
      }
    }
  }
  return rules;
}
