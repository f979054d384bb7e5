import type { Static } from '@sinclair/typebox';
import { field, int32, list, str, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import {
  child,
  invalid,
  key,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn, shortHumanDuration } from '../columns';
import { selectorOf } from '../apps/template-rules';
import { formatLabelSelector } from '../../util/labels';
import { containerColumns, selectorColumn } from '../apps/workload-columns';
import { JobSpecSchema } from './job-spec';

/** The label tying a job's pods to the job's uid, generated with the selector. */
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
/** The label carrying the job's name on its pods. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/** {@link CONTROLLER_UID_LABEL} as jobs were labelled before Kubernetes v1.27, still set beside it. */
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
/** {@link JOB_NAME_LABEL} as jobs were labelled before Kubernetes v1.27, still set beside it. */
export const LEGACY_JOB_NAME_LABEL = 'job-name';
/** The annotation and label carrying an Indexed job pod's completion index. */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** The environment variable an Indexed job's containers read their completion index from. */
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** backoffLimit when backoffLimitPerIndex is set (math.MaxInt32). */
export const MAX_BACKOFF_LIMIT = 2147483647;

export const JobConditionSchema = struct('io.k8s.api.batch.v1.JobCondition', {
  type: str({
    proto: 1,
    description: 'Type of the condition: Complete, Failed, Suspended or FailureTarget.',
  }),
  status: str({ proto: 2, enum: ['True', 'False', 'Unknown'], description: 'True, False or Unknown.' }),
  lastProbeTime: time({ proto: 3, description: 'Last time the condition was checked.' }),
  lastTransitionTime: time({ proto: 4, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 5, description: 'Reason of the last transition.' }),
  message: str({ proto: 6, description: 'Human readable details of the last transition.' }),
});

export const UncountedTerminatedPodsSchema = struct('io.k8s.api.batch.v1.UncountedTerminatedPods', {
  succeeded: list(str(), { proto: 1, listType: 'set', description: 'UIDs of succeeded pods.' }),
  failed: list(str(), { proto: 2, listType: 'set', description: 'UIDs of failed pods.' }),
});

export const JobStatusSchema = struct('io.k8s.api.batch.v1.JobStatus', {
  conditions: list(JobConditionSchema, {
    proto: 1,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    listType: 'atomic',
    description: 'Latest observations of the job state: Complete, Failed or Suspended.',
  }),
  startTime: time({
    proto: 2,
    description:
      'When the job controller started processing the job; unset while created suspended, reset on resume.',
  }),
  completionTime: time({ proto: 3, description: 'When the job completed; set only on success.' }),
  active: int32({ proto: 4, omitZero: true, description: 'Number of pending and running pods.' }),
  succeeded: int32({ proto: 5, omitZero: true, description: 'Number of pods that reached phase Succeeded.' }),
  failed: int32({ proto: 6, omitZero: true, description: 'Number of pods that reached phase Failed.' }),
  completedIndexes: str({
    proto: 7,
    description: 'Completed indexes of an Indexed job, as intervals in increasing order: "1,3-5,7".',
  }),
  uncountedTerminatedPods: field(UncountedTerminatedPodsSchema, {
    proto: 8,
    description: 'UIDs of terminated pods not yet accounted in the counters.',
  }),
  ready: int32({ proto: 9, description: 'Number of active pods with a Ready condition.' }),
  failedIndexes: str({
    proto: 10,
    description: 'Failed indexes when backoffLimitPerIndex is set, in the format of completedIndexes.',
  }),
  terminating: int32({
    proto: 11,
    description: 'Number of pending or running pods that are terminating (have a deletionTimestamp).',
  }),
});

const jobFields = {
  ...typeMeta(),
  metadata: objectMeta(),
  spec: field(JobSpecSchema, { proto: 2, description: 'Desired behaviour of the job.' }),
  status: field(JobStatusSchema, { proto: 3, description: 'Most recently observed status.' }),
};
type JobValue = Static<StructSchema<typeof jobFields>>;

export const JobSchema = struct('io.k8s.api.batch.v1.Job', jobFields, {
  description: 'Runs pods until a given number of them complete successfully.',
  defaults: (job) => defaultJob(job),
  validate: (job, path) => validateJob(job, path),
});
export type Job = Static<typeof JobSchema>;

/**
 * Kubernetes' SetDefaults_Job (batch/v1): completions and parallelism, backoffLimit, labels,
 * completionMode, suspend, the status of pod failure policy condition patterns and
 * podReplacementPolicy. Only jobs are defaulted so: a CronJob's job template keeps what it says.
 */
function defaultJob(job: JobValue): void {
  const spec = job.spec;
  if (spec) {
    if (spec.completions === undefined && spec.parallelism === undefined) {
      spec.completions = 1;
      spec.parallelism = 1;
    }
    spec.parallelism ??= 1;
    spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? MAX_BACKOFF_LIMIT : 6;
    spec.completionMode ??= 'NonIndexed';
    spec.suspend ??= false;
    for (const rule of spec.podFailurePolicy?.rules ?? []) {
      for (const pattern of rule.onPodConditions ?? []) {
        if (!pattern.status) pattern.status = 'True';
      }
    }
    spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  }
  const labels = spec?.template?.metadata?.labels;
  if (labels && Object.keys(job.metadata?.labels ?? {}).length === 0) {
    job.metadata ??= {};
    job.metadata.labels = { ...labels };
  }
}

/**
 * What the registry does before validating a new job without manualSelector (Kubernetes'
 * generateSelector since v1.27): label the pod template with the job's name and uid under both the
 * prefixed (`batch.kubernetes.io/…`) and the legacy keys, and select on the prefixed uid label.
 */
export function generateJobSelector(job: Job): void {
  if (job.spec?.manualSelector) return;
  if (!job.spec) return;
  const name = job.metadata?.name ?? '';
  const uid = job.metadata?.uid ?? '';
  const template = job.spec.template;
  template.metadata ??= {};
  const labels = (template.metadata.labels ??= {});
  labels[JOB_NAME_LABEL] ??= name;
  labels[LEGACY_JOB_NAME_LABEL] ??= name;
  labels[CONTROLLER_UID_LABEL] ??= uid;
  labels[LEGACY_CONTROLLER_UID_LABEL] ??= uid;
  const selector = (job.spec.selector ??= {});
  const matchLabels = (selector.matchLabels ??= {});
  matchLabels[CONTROLLER_UID_LABEL] ??= uid;
}

/** Kubernetes' ValidateHasLabel. */
function validateHasLabel(
  labels: Record<string, string> | undefined,
  path: string,
  name: string,
  value: string,
) {
  const at = key(child(path, 'labels'), name);
  if (!labels || !(name in labels)) return [requiredError(at, value)];
  return labels[name] === value ? [] : [invalid(at, labels, `must be '${value}'`)];
}

/** Kubernetes' ValidateGeneratedSelector and the selector rules of ValidateJobSpec. */
function validateJob(job: JobValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const spec = job.spec;
  if (!spec) return errors;
  const specPath = child(path, 'spec');
  const templateLabels = spec.template?.metadata?.labels;
  if (!spec.manualSelector && spec.selector) {
    const uid = job.metadata?.uid ?? '';
    if (uid === '') errors.push(requiredError(child(child(path, 'metadata'), 'uid')));
    const templateMeta = child(child(specPath, 'template'), 'metadata');
    const name = job.metadata?.name ?? '';
    errors.push(...validateHasLabel(templateLabels, templateMeta, LEGACY_CONTROLLER_UID_LABEL, uid));
    errors.push(...validateHasLabel(templateLabels, templateMeta, LEGACY_JOB_NAME_LABEL, name));
    // the prefixed labels are required of jobs that select on them, i.e. of every job created since
    // v1.27 (the selector is immutable): a job stored before keeps its legacy selector and labels
    const prefixed = spec.selector.matchLabels?.[CONTROLLER_UID_LABEL] !== undefined;
    if (prefixed) {
      errors.push(...validateHasLabel(templateLabels, templateMeta, CONTROLLER_UID_LABEL, uid));
      errors.push(...validateHasLabel(templateLabels, templateMeta, JOB_NAME_LABEL, name));
    }
    const expected = { [prefixed ? CONTROLLER_UID_LABEL : LEGACY_CONTROLLER_UID_LABEL]: uid };
    if (selectorOf(spec.selector)?.matches(expected) === false) {
      errors.push(invalid(child(specPath, 'selector'), spec.selector, '`selector` not auto-generated'));
    }
  }
  if (!spec.selector) errors.push(requiredError(child(specPath, 'selector')));
  else if (selectorOf(spec.selector)?.matches(templateLabels ?? {}) === false) {
    errors.push(
      invalid(
        child(child(child(specPath, 'template'), 'metadata'), 'labels'),
        templateLabels ?? {},
        '`selector` does not match template `labels`',
      ),
    );
  }
  return errors;
}

/** The COMPLETIONS cell: "succeeded/completions", or "n/1 of p" for work queues with parallelism above 1. */
export function completionsCell(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (completions !== undefined) return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** The DURATION cell: time from start to completion, or to now while running; empty before start. */
export function durationCell(job: Job, now: Date): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : now.getTime();
  return shortHumanDuration(end - Date.parse(start));
}

export const JobKind = defineKind({
  group: 'batch',
  versions: ['v1'],
  kind: 'Job',
  plural: 'jobs',
  singular: 'job',
  categories: ['all'],
  namespaced: true,
  schema: JobSchema,
  subresources: { status: true },
  selectableFields: {
    'status.successful': (job) => String(job.status?.succeeded ?? 0),
  },
  columns: [
    nameColumn(),
    {
      name: 'Completions',
      type: 'string',
      description: 'The desired number of successfully finished pods the job should be run with.',
      cell: completionsCell,
    },
    {
      name: 'Duration',
      type: 'string',
      description: 'Time required to complete the job.',
      cell: durationCell,
    },
    ageColumn(),
    ...containerColumns<Job>((job) => job.spec?.template),
    selectorColumn<Job>((job) => formatLabelSelector(job.spec?.selector)),
  ],
});
