import { deepEqual } from '../../patch/json-value';
import type { Static } from '@sinclair/typebox';
import {
  field,
  int32,
  int64,
  intOrString,
  list,
  required,
  str,
  struct,
  type StructSchema,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import { nameIsDNSLabel } from '../../util/names';
import type { NameValidator } from '../../validation/object-meta';
import {
  child,
  forbidden,
  invalid,
  notSupported,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { PersistentVolumeClaimSchema } from '../core/persistent-volume-claim';
import { PodTemplateSpecSchema } from '../core/pod-spec';
import {
  intOrPercentValue,
  invalidIntOrString,
  validateNonnegative,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './int-or-percent';
import { validateSelectorNotEmpty, validateWorkloadTemplate } from './template-rules';
import { workloadCondition } from './workload-condition';
import { containerColumns } from './workload-columns';

/** Kubernetes' ValidateStatefulSetName: pod names are built from it, so it must be an RFC 1123 label. */
export const validateStatefulSetName: NameValidator = nameIsDNSLabel;

export const PodManagementPolicies = ['OrderedReady', 'Parallel'] as const;

const rollingUpdateStatefulSetStrategyFields = {
  partition: int32({
    proto: 1,
    description: 'Pods with an ordinal at or above the partition are updated; 0 by default.',
  }),
  maxUnavailable: intOrString({
    proto: 2,
    description:
      'Pods that may be unavailable during the update, as a count or a percentage (rounded up); not 0. Honoured only with the MaxUnavailableStatefulSet feature (alpha).',
  }),
};
type RollingUpdateStatefulSetStrategyValue = Static<
  StructSchema<typeof rollingUpdateStatefulSetStrategyFields>
>;

export const RollingUpdateStatefulSetStrategySchema = struct(
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy',
  rollingUpdateStatefulSetStrategyFields,
);

/** Kubernetes' validateRollingUpdateStatefulSet (checked only when the strategy type is RollingUpdate). */
function validateRollingUpdateStatefulSet(
  ru: RollingUpdateStatefulSetStrategyValue,
  path: string,
): FieldError[] {
  const errors = validateNonnegative(ru.partition, child(path, 'partition'));
  const maxUnavailable = ru.maxUnavailable;
  if (maxUnavailable !== undefined) {
    const at = child(path, 'maxUnavailable');
    errors.push(...validatePositiveIntOrPercent(maxUnavailable, at));
    if (intOrPercentValue(maxUnavailable) === 0)
      errors.push(invalidIntOrString(at, maxUnavailable, 'cannot be 0'));
    errors.push(...validateNotMoreThan100Percent(maxUnavailable, at));
  }
  return errors;
}

const statefulSetUpdateStrategyFields = {
  type: str({ proto: 1, description: 'RollingUpdate or OnDelete. RollingUpdate by default.' }),
  rollingUpdate: field(RollingUpdateStatefulSetStrategySchema, {
    proto: 2,
    description: 'Rolling update parameters; only with type RollingUpdate.',
  }),
};
type StatefulSetUpdateStrategyValue = Static<StructSchema<typeof statefulSetUpdateStrategyFields>>;

export const StatefulSetUpdateStrategySchema = struct(
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy',
  statefulSetUpdateStrategyFields,
  { defaults: (strategy) => defaultStatefulSetUpdateStrategy(strategy) },
);

/**
 * Kubernetes' SetDefaults_StatefulSet for the update strategy: a rolling update with partition 0 (a
 * rollingUpdate given without a type is kept). maxUnavailable is not defaulted: its default of 1
 * belongs to the MaxUnavailableStatefulSet feature, alpha and off in 1.29.
 */
function defaultStatefulSetUpdateStrategy(strategy: StatefulSetUpdateStrategyValue): void {
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0;
}

export const PersistentVolumeClaimRetentionPolicyTypes = ['Retain', 'Delete'] as const;

const retentionPolicyFields = {
  whenDeleted: str({
    proto: 1,
    description:
      'What happens to the claims of volumeClaimTemplates when the stateful set is deleted: Retain (kept) or Delete. Retain by default.',
  }),
  whenScaled: str({
    proto: 2,
    description:
      'What happens to the claims of the pods removed by a scale down: Retain (kept) or Delete. Retain by default.',
  }),
};
type RetentionPolicyValue = Static<StructSchema<typeof retentionPolicyFields>>;

export const StatefulSetPersistentVolumeClaimRetentionPolicySchema = struct(
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy',
  retentionPolicyFields,
  {
    // Kubernetes' SetDefaults_StatefulSet (StatefulSetAutoDeletePVC, beta and on in 1.29): an empty
    // policy, as a missing one, retains the claims.
    defaults: (policy) => {
      if (!policy.whenDeleted) policy.whenDeleted = 'Retain';
      if (!policy.whenScaled) policy.whenScaled = 'Retain';
    },
  },
);

/** Kubernetes' ValidatePersistentVolumeClaimRetentionPolicy. */
function validateRetentionPolicy(policy: RetentionPolicyValue | undefined, path: string): FieldError[] {
  if (!policy) return [];
  const errors: FieldError[] = [];
  for (const name of ['whenDeleted', 'whenScaled'] as const) {
    const value = policy[name] ?? '';
    if (!(PersistentVolumeClaimRetentionPolicyTypes as readonly string[]).includes(value)) {
      errors.push(notSupported(child(path, name), value, PersistentVolumeClaimRetentionPolicyTypes));
    }
  }
  return errors;
}

export const StatefulSetOrdinalsSchema = struct('io.k8s.api.apps.v1.StatefulSetOrdinals', {
  start: int32({
    proto: 1,
    description:
      'Index of the first replica: pods are numbered from start to start + replicas - 1. 0 when unset.',
  }),
});

const statefulSetSpecFields = {
  replicas: int32({ proto: 1, default: 1, description: 'Desired number of pods; 1 by default.' }),
  selector: required(
    field(LabelSelectorSchema, {
      proto: 2,
      description: 'Pods managed by the stateful set; must match the template labels. Cannot be updated.',
    }),
  ),
  template: required(
    field(PodTemplateSpecSchema, {
      proto: 3,
      description: 'Pods to create; each gets a unique, stable identity.',
    }),
  ),
  volumeClaimTemplates: list(PersistentVolumeClaimSchema, {
    proto: 4,
    description: 'Claims created for each pod, mounted by volumes of the same name in the template.',
  }),
  serviceName: str({
    proto: 5,
    description: 'The headless service giving the pods their network identity.',
  }),
  podManagementPolicy: str({
    proto: 6,
    default: 'OrderedReady',
    description: 'OrderedReady (one pod at a time, in order) or Parallel. OrderedReady by default.',
  }),
  updateStrategy: field(StatefulSetUpdateStrategySchema, {
    proto: 7,
    default: {},
    description: 'How pods are replaced when the template changes.',
  }),
  revisionHistoryLimit: int32({
    proto: 8,
    default: 10,
    description: 'Revisions kept in history; 10 by default.',
  }),
  minReadySeconds: int32({
    proto: 9,
    omitZero: true,
    description:
      'Seconds a new pod must be ready without any container crashing to count as available. 0 by default.',
  }),
  persistentVolumeClaimRetentionPolicy: field(StatefulSetPersistentVolumeClaimRetentionPolicySchema, {
    proto: 10,
    default: {},
    description: 'Whether the claims of volumeClaimTemplates are deleted with the set or on scale down.',
  }),
  ordinals: field(StatefulSetOrdinalsSchema, {
    proto: 11,
    description: 'Numbering of the replicas; from 0 by default.',
  }),
};
type StatefulSetSpecValue = Static<StructSchema<typeof statefulSetSpecFields>>;

export const StatefulSetSpecSchema = struct('io.k8s.api.apps.v1.StatefulSetSpec', statefulSetSpecFields, {
  validate: (spec, path) => validateStatefulSetSpec(spec, path),
});

/** Kubernetes' ValidateStatefulSetSpec. */
function validateStatefulSetSpec(spec: StatefulSetSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const policy = spec.podManagementPolicy ?? '';
  if (policy === '') errors.push(requiredError(child(path, 'podManagementPolicy')));
  else if (!(PodManagementPolicies as readonly string[]).includes(policy)) {
    errors.push(invalid(child(path, 'podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  const strategyPath = child(path, 'updateStrategy');
  const strategy = spec.updateStrategy ?? {};
  switch (strategy.type ?? '') {
    case '':
      errors.push(requiredError(strategyPath));
      break;
    case 'OnDelete':
      if (strategy.rollingUpdate) {
        errors.push(
          invalid(
            child(strategyPath, 'rollingUpdate'),
            strategy.rollingUpdate,
            "only allowed for updateStrategy 'RollingUpdate'",
          ),
        );
      }
      break;
    case 'RollingUpdate':
      if (strategy.rollingUpdate) {
        errors.push(
          ...validateRollingUpdateStatefulSet(strategy.rollingUpdate, child(strategyPath, 'rollingUpdate')),
        );
      }
      break;
    default:
      errors.push(invalid(strategyPath, strategy, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errors.push(
    ...validateRetentionPolicy(
      spec.persistentVolumeClaimRetentionPolicy,
      child(path, 'persistentVolumeClaimRetentionPolicy'),
    ),
  );
  errors.push(...validateNonnegative(spec.replicas, child(path, 'replicas')));
  errors.push(...validateNonnegative(spec.minReadySeconds, child(path, 'minReadySeconds')));
  errors.push(...validateNonnegative(spec.revisionHistoryLimit, child(path, 'revisionHistoryLimit')));
  if (spec.ordinals) errors.push(...validateNonnegative(spec.ordinals.start, child(path, 'ordinals.start')));
  errors.push(...validateSelectorNotEmpty(spec.selector, child(path, 'selector'), 'statefulset'));
  errors.push(...validateWorkloadTemplate(spec, path, 'StatefulSet'));
  return errors;
}

export const StatefulSetConditionSchema = workloadCondition('io.k8s.api.apps.v1.StatefulSetCondition');

export const StatefulSetStatusSchema = struct('io.k8s.api.apps.v1.StatefulSetStatus', {
  observedGeneration: int64({
    proto: 1,
    omitZero: true,
    description: 'Generation most recently observed by the controller.',
  }),
  replicas: required(int32({ proto: 2, default: 0, description: 'Pods created by the controller.' })),
  readyReplicas: int32({ proto: 3, omitZero: true, description: 'Pods with a Ready condition.' }),
  currentReplicas: int32({ proto: 4, omitZero: true, description: 'Pods created from the currentRevision.' }),
  updatedReplicas: int32({ proto: 5, omitZero: true, description: 'Pods created from the updateRevision.' }),
  currentRevision: str({
    proto: 6,
    description: 'Revision used for pods with ordinals below currentReplicas.',
  }),
  updateRevision: str({
    proto: 7,
    description: 'Revision used for pods with ordinals from the partition up.',
  }),
  collisionCount: int32({ proto: 9, description: 'Hash collisions met when naming the newest revision.' }),
  conditions: list(StatefulSetConditionSchema, {
    proto: 10,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Latest observations of the stateful set state.',
  }),
  availableReplicas: int32({
    proto: 11,
    default: 0,
    description: 'Pods ready for at least minReadySeconds.',
  }),
});

export const StatefulSetSchema = struct(
  'io.k8s.api.apps.v1.StatefulSet',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(StatefulSetSpecSchema, { proto: 2, description: 'Desired behaviour of the stateful set.' }),
    status: field(StatefulSetStatusSchema, {
      proto: 3,
      default: {},
      description: 'Most recently observed status; may lag.',
    }),
  },
  { description: 'Runs pods with stable identities and storage, created and updated in order.' },
);
export type StatefulSet = Static<typeof StatefulSetSchema>;

/**
 * Kubernetes' ValidateStatefulSetUpdate: only replicas, ordinals, template, updateStrategy,
 * persistentVolumeClaimRetentionPolicy and minReadySeconds may change.
 */
function validateStatefulSetUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const fixed = (s: StatefulSet) => {
    const {
      replicas: _r,
      ordinals: _o,
      template: _t,
      updateStrategy: _u,
      persistentVolumeClaimRetentionPolicy: _p,
      minReadySeconds: _m,
      ...rest
    } = s.spec ?? ({} as NonNullable<StatefulSet['spec']>);
    return rest;
  };
  if (deepEqual(fixed(sts), fixed(old))) return [];
  return [
    forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

export const StatefulSetKind = defineKind({
  nameValidation: validateStatefulSetName,
  group: 'apps',
  versions: ['v1'],
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  schema: StatefulSetSchema,
  subresources: {
    status: true,
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
  validateUpdate: validateStatefulSetUpdate,
  columns: [
    nameColumn(),
    {
      name: 'Ready',
      type: 'string',
      description: 'Number of the pods with ready state out of the desired ones.',
      cell: (sts) => `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`,
    },
    ageColumn(),
    ...containerColumns<StatefulSet>((sts) => sts.spec?.template),
  ],
});
