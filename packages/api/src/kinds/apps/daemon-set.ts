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
import {
  child,
  notSupported,
  required as requiredError,
  type FieldError,
} from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { formatLabels } from '../core/pod-columns';
import { PodTemplateSpecSchema } from '../core/pod-spec';
import {
  intOrPercentValue,
  invalidIntOrString,
  validateNonnegative,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './int-or-percent';
import { formatLabelSelector } from '../../util/labels';
import { validateSelectorNotEmpty, validateWorkloadTemplate } from './template-rules';
import { workloadCondition } from './workload-condition';
import { containerColumns, selectorColumn } from './workload-columns';

/** The label carrying the template generation a daemon pod was made from (deprecated, still set). */
export const DAEMONSET_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/**
 * The annotation in which apps/v1 carries a DaemonSet's template generation: set by the server, 1
 * on create and one more at each update that changes the template.
 */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

export const DaemonSetUpdateStrategyTypes = ['RollingUpdate', 'OnDelete'] as const;

const rollingUpdateDaemonSetFields = {
  maxUnavailable: intOrString({
    proto: 1,
    description:
      'Daemon pods that may be unavailable during the update, as a count or a percentage (rounded up); 0 only when maxSurge is not. 1 by default.',
  }),
  maxSurge: intOrString({
    proto: 2,
    description:
      'Nodes that may run an updated daemon pod beside the old one during the update, as a count or a percentage (rounded up, at least 1); 0 only when maxUnavailable is not. 0 by default.',
  }),
};
type RollingUpdateDaemonSetValue = Static<StructSchema<typeof rollingUpdateDaemonSetFields>>;

/** Validated with the strategy, only when its type is RollingUpdate (as Kubernetes does). */
export const RollingUpdateDaemonSetSchema = struct(
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet',
  rollingUpdateDaemonSetFields,
);

/**
 * Kubernetes' ValidateRollingUpdateDaemonSet: both values are counts or percentages up to 100%, and
 * exactly one of them is not 0 (a surge replaces pods on a node before the old one goes, an
 * unavailability stops old pods first; the two cannot be combined).
 */
function validateRollingUpdateDaemonSet(ru: RollingUpdateDaemonSetValue, path: string): FieldError[] {
  const maxUnavailable = ru.maxUnavailable ?? 0;
  const maxSurge = ru.maxSurge ?? 0;
  const unavailablePath = child(path, 'maxUnavailable');
  const surgePath = child(path, 'maxSurge');
  const errors = [
    ...validatePositiveIntOrPercent(maxUnavailable, unavailablePath),
    ...validatePositiveIntOrPercent(maxSurge, surgePath),
    ...validateNotMoreThan100Percent(maxUnavailable, unavailablePath),
    ...validateNotMoreThan100Percent(maxSurge, surgePath),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errors.push(invalidIntOrString(surgePath, maxSurge, 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errors.push(requiredError(unavailablePath, 'cannot be 0 when maxSurge is 0'));
  }
  return errors;
}

const daemonSetUpdateStrategyFields = {
  type: str({
    proto: 1,
    default: 'RollingUpdate',
    description: 'RollingUpdate or OnDelete. RollingUpdate by default.',
  }),
  rollingUpdate: field(RollingUpdateDaemonSetSchema, {
    proto: 2,
    description: 'Rolling update parameters; only with type RollingUpdate.',
  }),
};
type DaemonSetUpdateStrategyValue = Static<StructSchema<typeof daemonSetUpdateStrategyFields>>;

export const DaemonSetUpdateStrategySchema = struct(
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy',
  daemonSetUpdateStrategyFields,
  {
    defaults: (strategy) => {
      if (strategy.type !== 'RollingUpdate') return;
      strategy.rollingUpdate ??= {};
      strategy.rollingUpdate.maxUnavailable ??= 1;
      strategy.rollingUpdate.maxSurge ??= 0;
    },
    validate: (strategy, path) => validateDaemonSetUpdateStrategy(strategy, path),
  },
);

/** Kubernetes' ValidateDaemonSetUpdateStrategy. */
function validateDaemonSetUpdateStrategy(strategy: DaemonSetUpdateStrategyValue, path: string): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      return strategy.rollingUpdate
        ? validateRollingUpdateDaemonSet(strategy.rollingUpdate, child(path, 'rollingUpdate'))
        : [requiredError(child(path, 'rollingUpdate'))];
    default:
      return [notSupported(path, strategy, DaemonSetUpdateStrategyTypes)];
  }
}

const daemonSetSpecFields = {
  selector: required(
    field(LabelSelectorSchema, {
      proto: 1,
      immutable: true,
      description: 'Pods managed by the daemon set; must match the template labels. Cannot be updated.',
    }),
  ),
  template: required(
    field(PodTemplateSpecSchema, {
      proto: 2,
      description:
        "One pod runs on every node matching the template's node selector (every node without one).",
    }),
  ),
  updateStrategy: field(DaemonSetUpdateStrategySchema, {
    proto: 3,
    default: {},
    description: 'How existing daemon pods are replaced by new ones.',
  }),
  minReadySeconds: int32({
    proto: 4,
    omitZero: true,
    description:
      'Seconds a new pod must be ready without any container crashing to count as available. 0 by default.',
  }),
  revisionHistoryLimit: int32({
    proto: 6,
    default: 10,
    description: 'Old histories kept for rollback; 10 by default.',
  }),
};
type DaemonSetSpecValue = Static<StructSchema<typeof daemonSetSpecFields>>;

export const DaemonSetSpecSchema = struct('io.k8s.api.apps.v1.DaemonSetSpec', daemonSetSpecFields, {
  validate: (spec, path) => validateDaemonSetSpec(spec, path),
});

/** Kubernetes' ValidateDaemonSetSpec. */
function validateDaemonSetSpec(spec: DaemonSetSpecValue, path: string): FieldError[] {
  return [
    ...validateWorkloadTemplate(spec, path, 'DaemonSet'),
    ...validateSelectorNotEmpty(spec.selector, child(path, 'selector'), 'daemonset'),
    ...validateNonnegative(spec.minReadySeconds, child(path, 'minReadySeconds')),
    ...validateNonnegative(spec.revisionHistoryLimit, child(path, 'revisionHistoryLimit')),
  ];
}

export const DaemonSetConditionSchema = workloadCondition('io.k8s.api.apps.v1.DaemonSetCondition');

export const DaemonSetStatusSchema = struct('io.k8s.api.apps.v1.DaemonSetStatus', {
  currentNumberScheduled: required(
    int32({ proto: 1, default: 0, description: 'Nodes running at least one daemon pod and supposed to.' }),
  ),
  numberMisscheduled: required(
    int32({ proto: 2, default: 0, description: 'Nodes running the daemon pod but not supposed to.' }),
  ),
  desiredNumberScheduled: required(
    int32({ proto: 3, default: 0, description: 'Nodes that should run the daemon pod.' }),
  ),
  numberReady: required(int32({ proto: 4, default: 0, description: 'Nodes whose daemon pod is ready.' })),
  observedGeneration: int64({
    proto: 5,
    omitZero: true,
    description: 'Generation most recently observed by the controller.',
  }),
  updatedNumberScheduled: int32({
    proto: 6,
    omitZero: true,
    description: 'Nodes running the updated daemon pod.',
  }),
  numberAvailable: int32({ proto: 7, omitZero: true, description: 'Nodes whose daemon pod is available.' }),
  numberUnavailable: int32({
    proto: 8,
    omitZero: true,
    description: 'Nodes that should run the daemon pod but have none available.',
  }),
  collisionCount: int32({ proto: 9, description: 'Hash collisions met when naming the newest revision.' }),
  conditions: list(DaemonSetConditionSchema, {
    proto: 10,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Latest observations of the daemon set state.',
  }),
});

export const DaemonSetSchema = struct(
  'io.k8s.api.apps.v1.DaemonSet',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(DaemonSetSpecSchema, { proto: 2, description: 'Desired behaviour of the daemon set.' }),
    status: field(DaemonSetStatusSchema, {
      proto: 3,
      default: {},
      description: 'Most recently observed status; may lag.',
    }),
  },
  { description: 'Runs a copy of a pod on each eligible node.' },
);
export type DaemonSet = Static<typeof DaemonSetSchema>;

export const DaemonSetKind = defineKind({
  group: 'apps',
  versions: ['v1'],
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['ds'],
  categories: ['all'],
  namespaced: true,
  schema: DaemonSetSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    {
      name: 'Desired',
      type: 'integer',
      description: 'Nodes that should run the daemon pod.',
      cell: (ds) => ds.status?.desiredNumberScheduled ?? 0,
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'Nodes running at least one daemon pod and supposed to.',
      cell: (ds) => ds.status?.currentNumberScheduled ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'Nodes whose daemon pod is ready.',
      cell: (ds) => ds.status?.numberReady ?? 0,
    },
    {
      name: 'Up-to-date',
      type: 'integer',
      description: 'Nodes running the updated daemon pod.',
      cell: (ds) => ds.status?.updatedNumberScheduled ?? 0,
    },
    {
      name: 'Available',
      type: 'integer',
      description: 'Nodes whose daemon pod is available.',
      cell: (ds) => ds.status?.numberAvailable ?? 0,
    },
    {
      name: 'Node Selector',
      type: 'string',
      description: "The template's node selector.",
      cell: (ds) => formatLabels(ds.spec?.template.spec?.nodeSelector),
    },
    ageColumn(),
    ...containerColumns<DaemonSet>((ds) => ds.spec?.template),
    selectorColumn<DaemonSet>((ds) => formatLabelSelector(ds.spec?.selector)),
  ],
});
