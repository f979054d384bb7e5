import { parseResourceList, resourceListsEqual, type QuotaEvaluator, type QuotaLike } from '@orch/api';

/**
 * Whether the quota's status is not yet what its controller keeps: status.hard differs from
 * spec.hard, or a resource it limits has no observed usage.
 */
export function quotaNeedsSync(quota: QuotaLike): boolean {
  const hard = quota.spec?.hard ?? {};
  const status = quota.status;
  if (!status?.hard || !status.used) return true;
  if (!resourceListsEqual(parseResourceList(hard), parseResourceList(status.hard))) return true;
  return Object.keys(hard).some((r) => status.used?.[r] === undefined);
}

/** Whether the quota limits something the evaluator measures. */
export function quotaTracks(quota: QuotaLike, evaluator: QuotaEvaluator): boolean {
  return evaluator.matchingResources(Object.keys(quota.spec?.hard ?? {})).length > 0;
}
