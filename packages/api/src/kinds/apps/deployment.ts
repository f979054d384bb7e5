import type { Static } from '@sinclair/typebox';
import {
  bool,
  field,
  int32,
  int64,
  intOrString,
  list,
  required,
  str,
  struct,
  time,
  type StructSchema,
} from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import {
  child,
  forbidden,
  invalid,
  notSupported,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { PodTemplateSpecSchema } from '../core/pod-spec';
import {
  intOrPercentValue,
  invalidIntOrString,
  validateNonnegative,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './int-or-percent';
import { validateSelectorNotEmpty, validateWorkloadTemplate } from './template-rules';
import { containerColumns, selectorColumn, selectorStringCell } from './workload-columns';

export const DeploymentStrategyTypes = ['Recreate', 'RollingUpdate'] as const;

const rollingUpdateDeploymentFields = {
  maxUnavailable: intOrString({
    proto: 1,
    description:
      'Pods that may be unavailable during the update, as a count or a percentage (rounded down). 25% by default.',
  }),
  maxSurge: intOrString({
    proto: 2,
    description:
      'Pods that may be created above the desired count, as a count or a percentage (rounded up). 25% by default.',
  }),
};
type RollingUpdateDeploymentValue = Static<StructSchema<typeof rollingUpdateDeploymentFields>>;

export const RollingUpdateDeploymentSchema = struct(
  'io.k8s.api.apps.v1.RollingUpdateDeployment',
  rollingUpdateDeploymentFields,
);

/** Kubernetes' ValidateRollingUpdateDeployment (checked only when the strategy type is RollingUpdate). */
function validateRollingUpdateDeployment(ru: RollingUpdateDeploymentValue, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const maxUnavailable = ru.maxUnavailable ?? 0;
  const maxSurge = ru.maxSurge ?? 0;
  errors.push(...validatePositiveIntOrPercent(maxUnavailable, child(path, 'maxUnavailable')));
  errors.push(...validatePositiveIntOrPercent(maxSurge, child(path, 'maxSurge')));
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errors.push(
      invalidIntOrString(child(path, 'maxUnavailable'), maxUnavailable, 'may not be 0 when `maxSurge` is 0'),
    );
  }
  errors.push(...validateNotMoreThan100Percent(maxUnavailable, child(path, 'maxUnavailable')));
  return errors;
}

const deploymentStrategyFields = {
  type: str({
    proto: 1,
    default: 'RollingUpdate',
    description: 'Recreate or RollingUpdate. RollingUpdate by default.',
  }),
  rollingUpdate: field(RollingUpdateDeploymentSchema, {
    proto: 2,
    description: 'Rolling update parameters; only with type RollingUpdate.',
  }),
};
type DeploymentStrategyValue = Static<StructSchema<typeof deploymentStrategyFields>>;

export const DeploymentStrategySchema = struct(
  'io.k8s.api.apps.v1.DeploymentStrategy',
  deploymentStrategyFields,
  {
    patchStrategy: 'retainKeys',
    defaults: (strategy) => {
      if (strategy.type !== 'RollingUpdate') return;
      strategy.rollingUpdate ??= {};
      strategy.rollingUpdate.maxUnavailable ??= '25%';
      strategy.rollingUpdate.maxSurge ??= '25%';
    },
    validate: (strategy, path) => validateDeploymentStrategy(strategy, path),
  },
);

/** Kubernetes' ValidateDeploymentStrategy. */
function validateDeploymentStrategy(strategy: DeploymentStrategyValue, path: string): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate
        ? [forbidden(child(path, 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    case 'RollingUpdate':
      return strategy.rollingUpdate
        ? validateRollingUpdateDeployment(strategy.rollingUpdate, child(path, 'rollingUpdate'))
        : [requiredError(child(path, 'rollingUpdate'), 'this should be defaulted and never be nil')];
    default:
      return [notSupported(path, strategy, DeploymentStrategyTypes)];
  }
}

const deploymentSpecFields = {
  replicas: int32({ proto: 1, default: 1, description: 'Desired number of pods; 1 by default.' }),
  selector: required(
    field(LabelSelectorSchema, {
      proto: 2,
      immutable: true,
      description:
        'Pods managed by the deployment; must match the template labels, which it defaults to. Cannot be updated.',
    }),
  ),
  template: required(field(PodTemplateSpecSchema, { proto: 3, description: 'Pods to create.' })),
  strategy: field(DeploymentStrategySchema, {
    proto: 4,
    default: {},
    patchStrategy: 'retainKeys',
    description: 'How existing pods are replaced by new ones.',
  }),
  minReadySeconds: int32({
    proto: 5,
    omitZero: true,
    description: 'Seconds a new pod must be ready without any container crashing to count as available.',
  }),
  revisionHistoryLimit: int32({
    proto: 6,
    default: 10,
    description: 'Old ReplicaSets kept for rollback; 10 by default.',
  }),
  paused: bool({ proto: 7, omitZero: true, description: 'Whether the deployment is paused.' }),
  progressDeadlineSeconds: int32({
    proto: 9,
    default: 600,
    description: 'Seconds the deployment may take to progress before it is reported failed; 600 by default.',
  }),
};
type DeploymentSpecValue = Static<StructSchema<typeof deploymentSpecFields>>;

export const DeploymentSpecSchema = struct('io.k8s.api.apps.v1.DeploymentSpec', deploymentSpecFields, {
  defaults: (spec) => {
    // an absent selector selects the template's labels (the workload spec's rule)
    const labels = spec.template?.metadata?.labels;
    if (spec.selector === undefined && labels && Object.keys(labels).length > 0)
      spec.selector = { matchLabels: { ...labels } };
  },
  validate: (spec, path) => validateDeploymentSpec(spec, path),
});
export type DeploymentSpec = Static<typeof DeploymentSpecSchema>;

/** Kubernetes' ValidateDeploymentSpec. */
function validateDeploymentSpec(spec: DeploymentSpecValue, path: string): FieldError[] {
  const errors: FieldError[] = [
    ...validateNonnegative(spec.replicas, child(path, 'replicas')),
    ...validateSelectorNotEmpty(spec.selector, child(path, 'selector'), 'deployment'),
    ...validateWorkloadTemplate(spec, path, 'ReplicaSet'),
    ...validateNonnegative(spec.minReadySeconds, child(path, 'minReadySeconds')),
    ...validateNonnegative(spec.revisionHistoryLimit, child(path, 'revisionHistoryLimit')),
  ];
  if (spec.progressDeadlineSeconds !== undefined) {
    errors.push(...validateNonnegative(spec.progressDeadlineSeconds, child(path, 'progressDeadlineSeconds')));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errors.push(
        invalid(
          child(path, 'progressDeadlineSeconds'),
          spec.progressDeadlineSeconds,
          'must be greater than minReadySeconds',
        ),
      );
    }
  }
  return errors;
}

export const DeploymentConditionSchema = struct('io.k8s.api.apps.v1.DeploymentCondition', {
  type: str({ proto: 1, description: 'Type of the condition: Available, Progressing or ReplicaFailure.' }),
  status: str({ proto: 2, enum: ['True', 'False', 'Unknown'], description: 'True, False or Unknown.' }),
  lastUpdateTime: time({ proto: 6, description: 'Last time this condition was updated.' }),
  lastTransitionTime: time({ proto: 7, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 4, description: 'Reason of the last transition.' }),
  message: str({ proto: 5, description: 'Human readable details of the last transition.' }),
});

export const DeploymentStatusSchema = struct('io.k8s.api.apps.v1.DeploymentStatus', {
  observedGeneration: int64({
    proto: 1,
    omitZero: true,
    description: 'Generation observed by the deployment controller.',
  }),
  replicas: int32({
    proto: 2,
    omitZero: true,
    description: 'Non-terminated pods targeted by the deployment.',
  }),
  updatedReplicas: int32({
    proto: 3,
    omitZero: true,
    description: 'Non-terminated pods with the desired template.',
  }),
  readyReplicas: int32({ proto: 7, omitZero: true, description: 'Ready pods targeted by the deployment.' }),
  availableReplicas: int32({
    proto: 4,
    omitZero: true,
    description: 'Pods ready for at least minReadySeconds.',
  }),
  unavailableReplicas: int32({
    proto: 5,
    omitZero: true,
    description: 'Pods still needed for the deployment to be fully available.',
  }),
  conditions: list(DeploymentConditionSchema, {
    proto: 6,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Latest observations of the deployment state.',
  }),
  collisionCount: int32({ proto: 8, description: 'Hash collisions met when naming the newest ReplicaSet.' }),
});

export const DeploymentSchema = struct(
  'io.k8s.api.apps.v1.Deployment',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(DeploymentSpecSchema, { proto: 2, description: 'Desired behaviour of the deployment.' }),
    status: field(DeploymentStatusSchema, { proto: 3, description: 'Most recently observed status.' }),
  },
  {
    description:
      'The desired state of a replicated application; its pod template is rolled out through ReplicaSets.',
  },
);
export type Deployment = Static<typeof DeploymentSchema>;

export const DeploymentKind = defineKind({
  group: 'apps',
  versions: ['v1'],
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  shortNames: ['deploy'],
  categories: ['all'],
  namespaced: true,
  schema: DeploymentSchema,
  subresources: {
    status: true,
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
  columns: [
    nameColumn(),
    {
      name: 'Ready',
      type: 'string',
      description: 'Number of the pods with ready state out of the desired ones.',
      cell: (d) => `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
    },
    {
      name: 'Up-to-date',
      type: 'string',
      description: 'Total number of non-terminated pods with the desired template.',
      cell: (d) => d.status?.updatedReplicas ?? 0,
    },
    {
      name: 'Available',
      type: 'string',
      description: 'Total number of available pods (ready for at least minReadySeconds).',
      cell: (d) => d.status?.availableReplicas ?? 0,
    },
    ageColumn(),
    ...containerColumns<Deployment>((d) => d.spec?.template),
    selectorColumn<Deployment>((d) => selectorStringCell(d.spec?.selector)),
  ],
});
