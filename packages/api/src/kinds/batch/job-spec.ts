import type { Static } from '@sinclair/typebox';
import { bool, field, int32, int64, required, struct, type StructSchema } from '../../schema/fields';
import { LabelSelectorSchema } from '../../meta/object-meta';
import { child, notSupported, type FieldError } from '../../validation/field-error';
import { PodTemplateSpecSchema } from '../core/pod-spec';
import { validateNonnegative } from '../apps/int-or-percent';

const jobSpecFields = {
  parallelism: int32({
    proto: 1,
    description: 'Most pods the job runs at once; 1 when neither parallelism nor completions is set.',
  }),
  completions: int32({
    proto: 2,
    immutable: true,
    description:
      'Successful pods needed to complete the job; 1 when neither parallelism nor completions is set.',
  }),
  activeDeadlineSeconds: int64({
    proto: 3,
    description: 'Seconds the job may be active before the system terminates it; a positive integer.',
  }),
  selector: field(LabelSelectorSchema, {
    proto: 4,
    immutable: true,
    description: "Pods of the job; generated from the job's uid unless manualSelector is true.",
  }),
  manualSelector: bool({
    proto: 5,
    description: 'True to manage the selector and pod labels yourself instead of having them generated.',
  }),
  template: required(
    field(PodTemplateSpecSchema, {
      proto: 6,
      immutable: true,
      description: 'Pods run by the job; restartPolicy must be Never or OnFailure.',
    }),
  ),
  backoffLimit: int32({ proto: 7, description: 'Retries before the job is marked failed; 6 by default.' }),
  ttlSecondsAfterFinished: int32({
    proto: 8,
    description: 'Seconds after the job finishes before it is deleted automatically; never when unset.',
  }),
};
type JobSpecValue = Static<StructSchema<typeof jobSpecFields>>;

export const JobSpecSchema = struct('io.k8s.api.batch.v1.JobSpec', jobSpecFields, {
  validate: (spec, path) => validateJobSpecCommon(spec, path),
});
export type JobSpec = Static<typeof JobSpecSchema>;

/** The rules Kubernetes applies to every job spec, in jobs and in job templates (validateJobSpec). */
function validateJobSpecCommon(spec: JobSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [
    ...validateNonnegative(spec.parallelism, child(path, 'parallelism')),
    ...validateNonnegative(spec.completions, child(path, 'completions')),
    ...validateNonnegative(spec.activeDeadlineSeconds, child(path, 'activeDeadlineSeconds')),
    ...validateNonnegative(spec.backoffLimit, child(path, 'backoffLimit')),
    ...validateNonnegative(spec.ttlSecondsAfterFinished, child(path, 'ttlSecondsAfterFinished')),
  ];
  const restartPolicy = spec.template?.spec?.restartPolicy ?? 'Always';
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errors.push(
      notSupported(child(child(child(path, 'template'), 'spec'), 'restartPolicy'), restartPolicy, [
        'OnFailure',
        'Never',
      ]),
    );
  }
  return errors;
}
