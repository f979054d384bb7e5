import type { ResourceList } from './resource-list';

/** An object a quota evaluator measures: any stored object. */
export interface QuotaObject {
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    deletionTimestamp?: string | null;
    deletionGracePeriodSeconds?: number | null;
    annotations?: Record<string, string> | null;
  } | null;
  [field: string]: unknown;
}

/** One scope requirement of a quota: a scope of spec.scopes (operator Exists) or of spec.scopeSelector. */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[] | null;
}

/** What a quota evaluator reads of a ResourceQuota. */
export interface QuotaLike extends QuotaObject {
  spec?: {
    hard?: Record<string, unknown> | null;
    scopes?: string[] | null;
    scopeSelector?: { matchExpressions?: ScopeRequirement[] | null } | null;
  } | null;
  status?: { hard?: Record<string, unknown> | null; used?: Record<string, unknown> | null } | null;
}

/** The write an evaluator is asked about. */
export type QuotaOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** How quota measures the objects of one resource (Kubernetes' quota.Evaluator). */
export interface QuotaEvaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether a write of this kind can change usage (creates; updates for kinds whose usage can grow). */
  handles(operation: QuotaOperation): boolean;
  /** The resource names among `names` this evaluator measures. */
  matchingResources(names: readonly string[]): string[];
  /** Whether the object falls within one scope requirement of a quota. */
  matchesScope(requirement: ScopeRequirement, obj: QuotaObject): boolean;
  /** What the object lacks to be measured against the `required` resources, in Kubernetes' words. */
  constraints(required: readonly string[], obj: QuotaObject): string | undefined;
  /** The object's usage; `now` (ms) decides whether a terminating pod still counts. */
  usage(obj: QuotaObject, now: number): ResourceList;
}

/** The quota's scope requirements: each of spec.scopes as an Exists requirement, then spec.scopeSelector's. */
export function scopeRequirementsOf(quota: QuotaLike): ScopeRequirement[] {
  return [
    ...(quota.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(quota.spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

/** The resource names of status.hard (what the quota enforces once its controller has seen it). */
export function enforcedResourceNames(quota: QuotaLike): string[] {
  return Object.keys(quota.status?.hard ?? {});
}

/** Whether the object is within every scope of the quota (true without scopes). */
export function matchesScopes(evaluator: QuotaEvaluator, quota: QuotaLike, obj: QuotaObject): boolean {
  return scopeRequirementsOf(quota).every((r) => evaluator.matchesScope(r, obj));
}

/**
 * Whether the quota governs the object: it enforces a resource the evaluator measures and the object
 * is within its scopes (Kubernetes' generic Matches, on status.hard).
 */
export function quotaMatches(evaluator: QuotaEvaluator, quota: QuotaLike, obj: QuotaObject): boolean {
  return (
    evaluator.matchingResources(enforcedResourceNames(quota)).length > 0 &&
    matchesScopes(evaluator, quota, obj)
  );
}

/** Scope matching of kinds without scopes: any scope excludes the object. */
export const matchesNoScope = (): boolean => false;

/** The names of `names` that are in `known`. */
export function intersectResourceNames(names: readonly string[], known: ReadonlySet<string>): string[] {
  return names.filter((n) => known.has(n));
}
