import type { Static } from '@sinclair/typebox';
import { field, struct, type StructSchema } from '../../schema/fields';
import { objectMeta } from '../../meta/object-meta';
import { child, invalid, notSupported, type FieldError } from '../../validation/field-error';
import { JobSpecSchema } from './job-spec';

const jobTemplateSpecFields = {
  metadata: objectMeta(),
  spec: field(JobSpecSchema, {
    proto: 2,
    description: 'Specification of the jobs created from this template.',
  }),
};
type JobTemplateSpecValue = Static<StructSchema<typeof jobTemplateSpecFields>>;

export const JobTemplateSpecSchema = struct('io.k8s.api.batch.v1.JobTemplateSpec', jobTemplateSpecFields, {
  validate: (template, path) => validateJobTemplateSpec(template, path),
});
export type JobTemplateSpec = Static<typeof JobTemplateSpecSchema>;

/** Kubernetes' ValidateJobTemplateSpec: the selector of created jobs is always generated. */
function validateJobTemplateSpec(template: JobTemplateSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const spec = child(path, 'spec');
  if (template.spec?.selector) {
    errors.push(
      invalid(child(spec, 'selector'), template.spec.selector, '`selector` will be auto-generated'),
    );
  }
  if (template.spec?.manualSelector) {
    errors.push(notSupported(child(spec, 'manualSelector'), template.spec.manualSelector, ['nil', 'false']));
  }
  return errors;
}
