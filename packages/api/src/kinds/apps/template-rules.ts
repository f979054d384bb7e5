import type { LabelSelector } from '../../meta/object-meta';
import { labelSelectorAsSelector, type LabelsSelector } from '../../util/labels';
import { child, forbidden, invalid, notSupported, type FieldError } from '../../validation/field-error';

interface TemplateLike {
  metadata?: { labels?: Record<string, string> };
  spec?: { restartPolicy?: string; activeDeadlineSeconds?: number };
}

/** The workload kinds whose pod template rules live here. */
export type WorkloadKind = 'ReplicaSet' | 'StatefulSet' | 'DaemonSet';

/** Kubernetes' LabelSelectorAsSelector; undefined when the selector cannot be converted. */
export function selectorOf(selector: LabelSelector | undefined): LabelsSelector | undefined {
  try {
    return labelSelectorAsSelector(selector);
  } catch {
    return undefined;
  }
}

/** What each kind reports when its selector cannot be converted (the DaemonSet says nothing more). */
const unconvertibleSelectorDetail: Record<WorkloadKind, string | undefined> = {
  ReplicaSet: 'invalid label selector',
  StatefulSet: '',
  DaemonSet: undefined,
};

/**
 * Kubernetes' rules for the pod template of a replicated workload (ValidatePodTemplateSpecForReplicaSet,
 * used by Deployment and ReplicaSet, and the DaemonSet/StatefulSet equivalents): the template labels
 * match the selector, pods restart Always, no activeDeadlineSeconds.
 */
export function validateWorkloadTemplate(
  spec: { selector?: LabelSelector; template?: TemplateLike },
  path: string,
  kind: WorkloadKind,
): FieldError[] {
  const errors: FieldError[] = [];
  const selector = selectorOf(spec.selector);
  if (selector === undefined) {
    const detail = unconvertibleSelectorDetail[kind];
    if (detail !== undefined) errors.push(invalid(child(path, 'selector'), spec.selector, detail));
  }
  const template = spec.template;
  if (!template) return errors;
  const templatePath = child(path, 'template');
  // A DaemonSet checks even an empty selector (which matches anything); the others skip it.
  const checkLabels = selector !== undefined && (kind === 'DaemonSet' || !selector.empty());
  if (checkLabels && !selector.matches(template.metadata?.labels ?? {})) {
    errors.push(
      invalid(
        child(child(templatePath, 'metadata'), 'labels'),
        template.metadata?.labels ?? {},
        '`selector` does not match template `labels`',
      ),
    );
  }
  const podSpec = child(templatePath, 'spec');
  const restartPolicy = template.spec?.restartPolicy ?? 'Always';
  if (restartPolicy !== 'Always')
    errors.push(notSupported(child(podSpec, 'restartPolicy'), restartPolicy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    errors.push(
      forbidden(child(podSpec, 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`),
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
  if (!selector) return [];
  const requirements =
    Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions?.length ?? 0);
  return requirements === 0 ? [invalid(path, selector, `empty selector is invalid for ${kind}`)] : [];
}
