import type { Static } from '@sinclair/typebox';
import { bool, field, int32, int64, list, oneOf, required, str, struct, time } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, type FieldError } from '../../validation/field-error';
import { ageColumn, humanDuration, nameColumn } from '../columns';
import { ObjectReferenceSchema } from '../core/object-reference';
import { validateNonnegative } from '../apps/int-or-percent';
import { formatLabelSelector } from '../../util/labels';
import { containerColumns, selectorColumn } from '../apps/workload-columns';
import { JobTemplateSpecSchema } from './job-template-spec';
import { isTimeZoneName } from '../../util/time-zone';

export const ConcurrencyPolicies = ['Allow', 'Forbid', 'Replace'] as const;

/**
 * Kubernetes' rules for a CronJob's time zone: timeZone, when set, names an IANA time zone (not
 * Local), and the schedule does not carry one of its own (TZ= or CRON_TZ=).
 */
function validateTimeZoneUse(schedule: string, timeZone: string | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (schedule.includes('TZ')) {
    errors.push(
      invalid(
        child(path, 'schedule'),
        schedule,
        timeZone === undefined
          ? 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'
          : 'cannot use both timeZone field and TZ or CRON_TZ in schedule',
      ),
    );
  }
  if (timeZone === undefined) return errors;
  const at = child(path, 'timeZone');
  if (timeZone === '') return [...errors, invalid(at, timeZone, 'timeZone must be nil or non-empty string')];
  if (timeZone.toLowerCase() === 'local') {
    return [
      ...errors,
      invalid(
        at,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    ];
  }
  if (!isTimeZoneName(timeZone)) errors.push(invalid(at, timeZone, `unknown time zone ${timeZone}`));
  return errors;
}

/** Longest cron job name: job names get an 11-character suffix and must fit 63 characters. */
export const CRON_JOB_NAME_MAX_LENGTH = 52;

export const CronJobSpecSchema = struct(
  'io.k8s.api.batch.v1.CronJobSpec',
  {
    schedule: required(str({ proto: 1, format: 'cron', description: 'The schedule in Cron format.' })),
    timeZone: str({
      proto: 8,
      description:
        'The IANA time zone name (https://www.iana.org/time-zones) the schedule is read in; UTC, the time zone of the controller manager, when not set.',
    }),
    startingDeadlineSeconds: int64({
      proto: 2,
      description: 'Deadline in seconds to start a run that missed its time; missed runs count as failed.',
    }),
    concurrencyPolicy: oneOf(ConcurrencyPolicies, {
      proto: 3,
      default: 'Allow',
      description:
        'Allow (runs may overlap), Forbid (skip a run while the previous one is running) or Replace. Allow by default.',
    }),
    suspend: bool({
      proto: 4,
      default: false,
      description: 'Suspends subsequent runs, not running ones. false by default.',
    }),
    jobTemplate: required(
      field(JobTemplateSpecSchema, { proto: 5, description: 'The job created on each run.' }),
    ),
    successfulJobsHistoryLimit: int32({
      proto: 6,
      default: 3,
      description: 'Finished successful jobs kept; 3 by default.',
    }),
    failedJobsHistoryLimit: int32({
      proto: 7,
      default: 1,
      description: 'Finished failed jobs kept; 1 by default.',
    }),
  },
  {
    validate: (spec, path): FieldError[] => [
      ...validateTimeZoneUse(spec.schedule, spec.timeZone, path),
      ...validateNonnegative(spec.startingDeadlineSeconds, child(path, 'startingDeadlineSeconds')),
      ...validateNonnegative(spec.successfulJobsHistoryLimit, child(path, 'successfulJobsHistoryLimit')),
      ...validateNonnegative(spec.failedJobsHistoryLimit, child(path, 'failedJobsHistoryLimit')),
    ],
  },
);
export type CronJobSpec = Static<typeof CronJobSpecSchema>;

export const CronJobStatusSchema = struct('io.k8s.api.batch.v1.CronJobStatus', {
  active: list(ObjectReferenceSchema, {
    proto: 1,
    listType: 'atomic',
    description: 'Jobs currently running.',
  }),
  lastScheduleTime: time({ proto: 4, description: 'Last time a job was successfully scheduled.' }),
  lastSuccessfulTime: time({ proto: 5, description: 'Last time a job completed successfully.' }),
});

export const CronJobSchema = struct(
  'io.k8s.api.batch.v1.CronJob',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(CronJobSpecSchema, { proto: 2, description: 'Schedule and job template of the cron job.' }),
    status: field(CronJobStatusSchema, { proto: 3, description: 'Current status of the cron job.' }),
  },
  {
    description: 'Runs Jobs on a repeating schedule written in cron format.',
    validate: (cj, path): FieldError[] => {
      const name = cj.metadata?.name ?? '';
      if (name.length <= CRON_JOB_NAME_MAX_LENGTH) return [];
      return [
        invalid(
          child(child(path, 'metadata'), 'name'),
          name,
          `must be no more than ${CRON_JOB_NAME_MAX_LENGTH} characters`,
        ),
      ];
    },
  },
);
export type CronJob = Static<typeof CronJobSchema>;

/** Kubernetes' printBoolPtr. */
const boolPtrCell = (value: boolean | undefined): string =>
  value === undefined ? '<unset>' : value ? 'True' : 'False';

export const CronJobKind = defineKind({
  group: 'batch',
  versions: ['v1', 'v1beta1'],
  deprecatedVersions: {
    v1beta1: 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob',
  },
  kind: 'CronJob',
  plural: 'cronjobs',
  singular: 'cronjob',
  shortNames: ['cj'],
  categories: ['all'],
  namespaced: true,
  schema: CronJobSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    {
      name: 'Schedule',
      type: 'string',
      description: 'The schedule in Cron format.',
      cell: (cj) => cj.spec?.schedule ?? '',
    },
    {
      name: 'Suspend',
      type: 'boolean',
      description: 'Whether subsequent runs are suspended.',
      cell: (cj) => boolPtrCell(cj.spec?.suspend),
    },
    {
      name: 'Active',
      type: 'integer',
      description: 'Number of running jobs.',
      cell: (cj) => cj.status?.active?.length ?? 0,
    },
    {
      name: 'Last Schedule',
      type: 'string',
      description: 'Time since a job was last scheduled.',
      cell: (cj, now) =>
        cj.status?.lastScheduleTime ? humanDuration(cj.status.lastScheduleTime, now) : '<none>',
    },
    ageColumn(),
    ...containerColumns<CronJob>((cj) => cj.spec?.jobTemplate.spec?.template),
    selectorColumn<CronJob>((cj) => formatLabelSelector(cj.spec?.jobTemplate.spec?.selector)),
  ],
});
