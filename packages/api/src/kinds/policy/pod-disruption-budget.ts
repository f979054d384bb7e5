import type { Static } from '@sinclair/typebox';
import {
  field,
  int32,
  int64,
  intOrString,
  list,
  map,
  str,
  struct,
  time,
  type StructSchema,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, notSupported, type FieldError } from '../../validation/field-error';
import { validateNotMoreThan100Percent, validatePositiveIntOrPercent } from '../apps/int-or-percent';
import { ageColumn, nameColumn } from '../columns';
import { ConditionSchema } from '../core/service';

/** When running pods that are not ready may be evicted (spec.unhealthyPodEvictionPolicy). */
export const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

const podDisruptionBudgetSpecFields = {
  minAvailable: intOrString({
    proto: 1,
    description: 'Pods that must stay available after an eviction, as a count or a percentage.',
  }),
  selector: field(LabelSelectorSchema, {
    proto: 2,
    patchStrategy: 'replace',
    description: 'Pods covered by the budget.',
  }),
  maxUnavailable: intOrString({
    proto: 3,
    description: 'Pods that may be unavailable after an eviction, as a count or a percentage.',
  }),
  unhealthyPodEvictionPolicy: str({
    proto: 4,
    description:
      'When running pods that are not ready may be evicted: IfHealthyBudget (default), while the budget has its healthy pods, or AlwaysAllow.',
  }),
};
type PodDisruptionBudgetSpecValue = Static<StructSchema<typeof podDisruptionBudgetSpecFields>>;

export const PodDisruptionBudgetSpecSchema = struct(
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec',
  podDisruptionBudgetSpecFields,
  { validate: (spec, path) => validatePodDisruptionBudgetSpec(spec, path) },
);
export type PodDisruptionBudgetSpec = Static<typeof PodDisruptionBudgetSpecSchema>;

/** Kubernetes' ValidatePodDisruptionBudgetSpec. */
function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errors.push(invalid(path, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !(UNHEALTHY_POD_EVICTION_POLICIES as readonly string[]).includes(policy)) {
    errors.push(
      notSupported(child(path, 'unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POD_EVICTION_POLICIES),
    );
  }
  for (const name of ['minAvailable', 'maxUnavailable'] as const) {
    const value = spec[name];
    if (value === undefined) continue;
    errors.push(...validatePositiveIntOrPercent(value, child(path, name)));
    errors.push(...validateNotMoreThan100Percent(value, child(path, name)));
  }
  return errors;
}

export const PodDisruptionBudgetStatusSchema = struct('io.k8s.api.policy.v1.PodDisruptionBudgetStatus', {
  observedGeneration: int64({
    proto: 1,
    description: 'Most recent generation observed when updating this status.',
  }),
  disruptedPods: map(time(), {
    proto: 2,
    description:
      'Pods whose eviction was processed but not yet observed by the controller, with the eviction time.',
  }),
  disruptionsAllowed: int32({ proto: 3, description: 'Number of pod disruptions currently allowed.' }),
  currentHealthy: int32({ proto: 4, description: 'Current number of healthy pods.' }),
  desiredHealthy: int32({ proto: 5, description: 'Minimum desired number of healthy pods.' }),
  expectedPods: int32({ proto: 6, description: 'Total number of pods counted by this budget.' }),
  conditions: list(ConditionSchema, {
    proto: 7,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    listType: 'map',
    listMapKeys: ['type'],
    description: 'Observations of the budget, such as whether disruptions are allowed (DisruptionAllowed).',
  }),
});

export const PodDisruptionBudgetSchema = struct(
  'io.k8s.api.policy.v1.PodDisruptionBudget',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(PodDisruptionBudgetSpecSchema, { proto: 2, description: 'Desired behaviour of the budget.' }),
    status: field(PodDisruptionBudgetStatusSchema, {
      proto: 3,
      description: 'Most recently observed status.',
    }),
  },
  { description: 'Limits how many pods of a set may be disrupted voluntarily at once.' },
);
export type PodDisruptionBudget = Static<typeof PodDisruptionBudgetSchema>;

const intOrStringCell = (value: number | string | undefined): string =>
  value === undefined ? 'N/A' : String(value);

export const PodDisruptionBudgetKind = defineKind({
  group: 'policy',
  versions: ['v1', 'v1beta1'],
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  shortNames: ['pdb'],
  deprecatedVersions: {
    v1beta1:
      'policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget',
  },
  namespaced: true,
  schema: PodDisruptionBudgetSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    {
      name: 'Min Available',
      type: 'string',
      description: 'Pods that must stay available after an eviction.',
      cell: (pdb) => intOrStringCell(pdb.spec?.minAvailable),
    },
    {
      name: 'Max Unavailable',
      type: 'string',
      description: 'Pods that may be unavailable after an eviction.',
      cell: (pdb) => intOrStringCell(pdb.spec?.maxUnavailable),
    },
    {
      name: 'Allowed Disruptions',
      type: 'integer',
      description: 'Number of pod disruptions currently allowed.',
      cell: (pdb) => pdb.status?.disruptionsAllowed ?? 0,
    },
    ageColumn(),
  ],
});
