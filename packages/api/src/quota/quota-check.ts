import {
  enforcedResourceNames,
  quotaMatches,
  type QuotaEvaluator,
  type QuotaLike,
  type QuotaObject,
  type QuotaOperation,
} from './quota-evaluator';
import {
  addResourceLists,
  lessThanOrEqual,
  maskResourceList,
  parseResourceList,
  prettyPrintResourceList,
  removeZeros,
  subtractNonNegative,
  type ResourceList,
} from './resource-list';

/** A write quota admission looks at. */
export interface QuotaRequest {
  evaluator: QuotaEvaluator;
  operation: QuotaOperation;
  object: QuotaObject;
  /** The stored object, on update. */
  oldObject?: QuotaObject;
  /** The quotas of the object's namespace. */
  quotas: readonly QuotaLike[];
  /** The clock (ms), for pods past their deletion. */
  now: number;
}

/** The request is refused (the reason, in Kubernetes' words), or may go on charging `usage` to `quotas`. */
export type QuotaDecision = { denied: string } | { usage: ResourceList; quotas: QuotaLike[] };

const nameOf = (quota: QuotaLike): string => quota.metadata?.name ?? '';

/** Whether the quota has observed usage for each of the resources it enforces among `resources`. */
function hasUsageStats(quota: QuotaLike, resources: readonly string[]): boolean {
  const used = quota.status?.used ?? {};
  return resources.every((r) => quota.status?.hard?.[r] === undefined || used[r] !== undefined);
}

/**
 * The usage the request adds to each quota governing it, checked against every one of them: the
 * object's constraints first (a pod must state the cpu and memory a quota limits), then that each
 * quota has its usage observed, then that used + usage stays within what each enforces.
 */
export function evaluateQuotaRequest(req: QuotaRequest): QuotaDecision {
  const { evaluator, object } = req;
  const governing: QuotaLike[] = [];
  for (const quota of req.quotas) {
    if (!quotaMatches(evaluator, quota, object)) continue;
    const restricted = evaluator.matchingResources(enforcedResourceNames(quota));
    const missing = evaluator.constraints(restricted, object);
    if (missing) return { denied: `failed quota: ${nameOf(quota)}: ${missing}` };
    if (!hasUsageStats(quota, restricted)) {
      return {
        denied: `status unknown for quota: ${nameOf(quota)}, resources: ${[...restricted].sort().join(',')}`,
      };
    }
    governing.push(quota);
  }
  if (!governing.length) return { usage: {}, quotas: [] };
  let usage = evaluator.usage(object, req.now);
  if (req.operation === 'UPDATE' && req.oldObject?.metadata?.resourceVersion) {
    usage = subtractNonNegative(usage, evaluator.usage(req.oldObject, req.now));
  }
  usage = removeZeros(usage);
  if (!Object.keys(usage).length) return { usage, quotas: [] };
  for (const quota of governing) {
    const charged = chargeQuota(quota, usage);
    if ('denied' in charged) return charged;
  }
  return { usage, quotas: governing };
}

/**
 * The quota's status.used once `usage` is charged to it, or the refusal when that exceeds what it
 * enforces: `exceeded quota: <name>, requested: ..., used: ..., limited: ...`.
 */
export function chargeQuota(
  quota: QuotaLike,
  usage: ResourceList,
): { denied: string } | { used: ResourceList } {
  const hard = parseResourceList(quota.status?.hard);
  const used = parseResourceList(quota.status?.used);
  const requested = maskResourceList(usage, Object.keys(hard));
  const newUsed = addResourceLists(used, requested);
  const { ok, exceeded } = lessThanOrEqual(maskResourceList(newUsed, Object.keys(requested)), hard);
  if (!ok) {
    return {
      denied:
        `exceeded quota: ${nameOf(quota)}, ` +
        `requested: ${prettyPrintResourceList(maskResourceList(requested, exceeded))}, ` +
        `used: ${prettyPrintResourceList(maskResourceList(used, exceeded))}, ` +
        `limited: ${prettyPrintResourceList(maskResourceList(hard, exceeded))}`,
    };
  }
  return { used: newUsed };
}
