import { labelSelectorAsSelector, selectorFromSet } from '@orch/api';

/**
 * The Scale's status.selector: the scaled object's spec.selector in string form — a LabelSelector
 * (Deployment, ReplicaSet, StatefulSet: LabelSelectorAsSelector) or a plain label map
 * (ReplicationController: SelectorFromSet), told apart by their values (a map's are strings).
 */
export function scaleSelector(selector: unknown): string {
  if (typeof selector !== 'object' || selector === null || Array.isArray(selector)) return '';
  const values = Object.values(selector as Record<string, unknown>);
  if (values.length && values.every((v) => typeof v === 'string')) {
    return selectorFromSet(selector as Record<string, string>).toString();
  }
  return labelSelectorAsSelector(selector as Parameters<typeof labelSelectorAsSelector>[0]).toString();
}
