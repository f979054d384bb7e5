import {
  formatTime,
  HPA_CONDITIONS_ANNOTATION,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
} from '@orch/api';

export type ConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

/** The conditions an autoscaling/v1 autoscaler carries in its annotation; none when it holds no list. */
export function conditionsOf(hpa: HorizontalPodAutoscaler): HorizontalPodAutoscalerCondition[] {
  const raw = hpa.metadata?.annotations?.[HPA_CONDITIONS_ANNOTATION];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as HorizontalPodAutoscalerCondition[]) : [];
  } catch {
    return [];
  }
}

/**
 * The list with the condition of `type` set (Kubernetes' setConditionInList): a new one is appended,
 * its transition time moves only when its status changes.
 */
export function setCondition(
  conditions: readonly HorizontalPodAutoscalerCondition[],
  type: ConditionType,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): HorizontalPodAutoscalerCondition[] {
  const existing = conditions.find((c) => c.type === type);
  const next: HorizontalPodAutoscalerCondition = {
    type,
    status,
    lastTransitionTime:
      existing && existing.status === status ? existing.lastTransitionTime : formatTime(now),
    reason,
    message,
  };
  return existing ? conditions.map((c) => (c === existing ? next : c)) : [...conditions, next];
}

/** The annotations of `hpa` carrying `conditions`. */
export function annotationsWithConditions(
  hpa: HorizontalPodAutoscaler,
  conditions: readonly HorizontalPodAutoscalerCondition[],
): Record<string, string> {
  return { ...hpa.metadata?.annotations, [HPA_CONDITIONS_ANNOTATION]: JSON.stringify(conditions) };
}
