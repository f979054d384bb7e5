import { formatTime } from './time';

/** The fields of a status condition these helpers use; kinds add their own (lastUpdateTime, ...). */
export interface ConditionLike {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

/** The condition of the given type, if present (FindStatusCondition). */
export function getCondition<C extends ConditionLike>(
  conditions: readonly C[] | null | undefined,
  type: string,
): C | undefined {
  if (!conditions) return undefined;
  for (let i = 0; i < conditions.length; i++) if (conditions[i]!.type === type) return conditions[i];
  return undefined;
}

/** Whether the condition of the given type is present with status "True". */
export function isConditionTrue(
  conditions: readonly ConditionLike[] | null | undefined,
  type: string,
): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

function sameFields(a: ConditionLike, b: ConditionLike): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const k in x) if (x[k] !== y[k]) return false;
  for (const k in y) if (x[k] !== y[k]) return false;
  return true;
}

/**
 * Sets a condition, Kubernetes' way (SetStatusCondition): a new type is appended; an existing one
 * is replaced in place, keeping its lastTransitionTime unless the status changed. A missing
 * lastTransitionTime on a new or changed condition becomes now (`now()` for tests).
 * Returns a new array, or the given array itself when nothing changed (so callers can skip the
 * update); the input is never modified.
 */
export function setCondition<C extends ConditionLike>(
  conditions: readonly C[] | null | undefined,
  cond: C,
  now: () => number = Date.now,
): C[] {
  const list = (conditions ?? []) as C[];
  const i = list.findIndex((c) => c.type === cond.type);
  if (i < 0) {
    const added = cond.lastTransitionTime ? cond : { ...cond, lastTransitionTime: formatTime(now()) };
    return [...list, added];
  }
  const existing = list[i]!;
  let lastTransitionTime = existing.lastTransitionTime;
  if (existing.status !== cond.status) lastTransitionTime = cond.lastTransitionTime || formatTime(now());
  const updated: C = { ...cond };
  if (lastTransitionTime === undefined) delete updated.lastTransitionTime;
  else updated.lastTransitionTime = lastTransitionTime;
  if (sameFields(existing, updated)) return list;
  const out = list.slice();
  out[i] = updated;
  return out;
}

/** The conditions without the given type; the same array when it was absent (RemoveStatusCondition). */
export function removeCondition<C extends ConditionLike>(
  conditions: readonly C[] | null | undefined,
  type: string,
): C[] {
  const list = (conditions ?? []) as C[];
  return list.some((c) => c.type === type) ? list.filter((c) => c.type !== type) : list;
}
