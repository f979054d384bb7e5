import type { Static } from '@sinclair/typebox';
import { list, required, str, struct, type StructSchema } from '../../schema/fields';
import { child, duplicate, required as requiredError, type FieldError } from '../../validation/field-error';

export const TopologySelectorLabelRequirementSchema = struct(
  'io.k8s.api.core.v1.TopologySelectorLabelRequirement',
  {
    key: required(
      str({ proto: 1, format: 'qualified-name', description: 'The label key of the requirement.' }),
    ),
    values: required(
      list(str(), {
        proto: 2,
        description: 'Allowed values of the label; the requirement holds for any of them.',
      }),
    ),
  },
);

const topologySelectorTermFields = {
  matchLabelExpressions: list(TopologySelectorLabelRequirementSchema, {
    proto: 1,
    description: 'Label requirements, all of which must hold.',
  }),
};
type TopologySelectorTermValue = Static<StructSchema<typeof topologySelectorTermFields>>;

export const TopologySelectorTermSchema = struct(
  'io.k8s.api.core.v1.TopologySelectorTerm',
  topologySelectorTermFields,
  {
    mapType: 'atomic',
    validate: (term, path) => validateTopologySelectorTerm(term, path),
  },
);
export type TopologySelectorTerm = Static<typeof TopologySelectorTermSchema>;

/** Kubernetes' ValidateTopologySelectorTerm: at least one value per key, each key once. */
function validateTopologySelectorTerm(term: TopologySelectorTermValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const keys = new Set<string>();
  (term.matchLabelExpressions ?? []).forEach((req, i) => {
    const at = child(child(path, 'matchLabelExpressions'), i);
    if (!req.values?.length)
      errors.push(requiredError(child(at, 'values'), 'must specify as least one value'));
    if (keys.has(req.key)) errors.push(duplicate(child(at, 'key'), req.key));
    keys.add(req.key);
  });
  return errors;
}

/** A term in canonical form (keys and values sorted), to find terms that say the same thing. */
export function canonicalTopologySelectorTerm(term: TopologySelectorTerm): string {
  const entries = (term.matchLabelExpressions ?? []).map(
    (r) => [r.key, [...new Set(r.values)].sort()] as const,
  );
  return JSON.stringify(entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}
