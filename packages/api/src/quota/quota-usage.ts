import { matchesScopes, type QuotaEvaluator, type QuotaLike, type QuotaObject } from './quota-evaluator';
import {
  addResourceLists,
  formatResourceList,
  maskResourceList,
  parseResourceList,
  resourceListsEqual,
  zeroQuantity,
  type ResourceList,
} from './resource-list';

/**
 * The usage of what the quota limits (spec.hard) observed in the given objects: for each evaluator
 * measuring some of those resources, the sum over its objects within the quota's scopes (zero when
 * there are none). `objectsOf` gives an evaluator's objects in the quota's namespace, or undefined
 * when they cannot be known now; their resources are then left out.
 */
export function calculateQuotaUsage(
  quota: QuotaLike,
  evaluators: readonly QuotaEvaluator[],
  objectsOf: (evaluator: QuotaEvaluator) => readonly QuotaObject[] | undefined,
  now: number,
): ResourceList {
  const hardNames = Object.keys(quota.spec?.hard ?? {});
  const matched = new Set(evaluators.flatMap((e) => e.matchingResources(hardNames)));
  let used: ResourceList = {};
  for (const evaluator of evaluators) {
    const resources = evaluator.matchingResources([...matched]);
    if (!resources.length) continue;
    const objects = objectsOf(evaluator);
    if (!objects) {
      for (const r of resources) matched.delete(r);
      continue;
    }
    for (const r of resources) used = addResourceLists(used, { [r]: zeroQuantity() });
    for (const obj of objects) {
      if (matchesScopes(evaluator, quota, obj)) used = addResourceLists(used, evaluator.usage(obj, now));
    }
  }
  return maskResourceList(used, matched);
}

/** A ResourceQuota status as stored. */
export interface QuotaStatus {
  hard: Record<string, string>;
  used: Record<string, string>;
}

/**
 * The status the quota controller writes: hard as spec.hard, used as observed (the previous
 * observation for resources not measured now), both limited to spec.hard's resources; `changed`
 * when that differs from the stored status.
 */
export function nextQuotaStatus(
  quota: QuotaLike,
  observed: ResourceList,
): { status: QuotaStatus; changed: boolean } {
  const hard = parseResourceList(quota.spec?.hard);
  const storedHard = quota.status?.hard;
  const storedUsed = quota.status?.used;
  const previous = parseResourceList(storedUsed);
  const used = maskResourceList({ ...previous, ...observed }, Object.keys(hard));
  const changed =
    !storedHard ||
    !storedUsed ||
    !resourceListsEqual(hard, parseResourceList(storedHard)) ||
    !resourceListsEqual(used, previous);
  return { status: { hard: formatResourceList(hard), used: formatResourceList(used) }, changed };
}
