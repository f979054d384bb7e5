import type { LabelSelector } from '../../meta/object-meta';
import { child, forbidden, invalid, notSupported, type FieldError } from '../../validation/field-error';
import { selectorIsEmpty, selectorMatches } from './label-selector';

interface TemplateLike {
  metadata?: { labels?: Record<string, string> };
  spec?: { restartPolicy?: string; activeDeadlineSeconds?: number };
}

/** The workload kind named when a pod template carries an activeDeadlineSeconds. */
export type ActiveDeadlineRule = 'ReplicaSet' | 'StatefulSet' | 'DaemonSet';

/**
 * Kubernetes' rules for the pod template of a replicated workload (ValidatePodTemplateSpecForReplicaSet and
 * the DaemonSet/StatefulSet equivalents): labels match the selector, pods restart Always, no deadline.
 */
export function validateWorkloadTemplate(
  template: TemplateLike | undefined,
  selector: LabelSelector | undefined,
  path: string,
  deadlineRule: ActiveDeadlineRule,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!template) return errors;
  const labels = template.metadata?.labels ?? {};
  const checkLabels = deadlineRule === 'DaemonSet' || !selector || !selectorIsEmpty(selector);
  if (checkLabels && !selectorMatches(selector, labels)) {
    errors.push(
      invalid(
        child(child(path, 'metadata'), 'labels'),
        template.metadata?.labels ?? {},
        '`selector` does not match template `labels`',
      ),
    );
  }
  const spec = child(path, 'spec');
  const restartPolicy = template.spec?.restartPolicy ?? 'Always';
  if (restartPolicy !== 'Always')
    errors.push(notSupported(child(spec, 'restartPolicy'), restartPolicy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    errors.push(
      forbidden(
        child(spec, 'activeDeadlineSeconds'),
        `activeDeadlineSeconds in ${deadlineRule} is not Supported`,
      ),
    );
  }
  return errors;
}

/** An empty selector (no matchLabels, no matchExpressions) is refused by the workload kinds. */
export function validateSelectorNotEmpty(
  selector: LabelSelector | undefined,
  path: string,
  kind: string,
): FieldError[] {
  if (!selector || !selectorIsEmpty(selector)) return [];
  return [invalid(path, selector, `empty selector is invalid for ${kind}`)];
}
