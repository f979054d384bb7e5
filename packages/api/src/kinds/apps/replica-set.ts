import type { Static } from '@sinclair/typebox';
import { field, int32, int64, list, required, struct, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { LabelSelectorSchema, objectMeta, typeMeta } from '../../meta/object-meta';
import { child, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { PodTemplateSpecSchema } from '../core/pod-spec';
import { validateNonnegative } from './int-or-percent';
import { formatLabelSelector } from '../../util/labels';
import { validateSelectorNotEmpty, validateWorkloadTemplate } from './template-rules';
import { workloadCondition } from './workload-condition';
import { containerColumns, selectorColumn } from './workload-columns';

const replicaSetSpecFields = {
  replicas: int32({ proto: 1, default: 1, description: 'Desired number of pods; 1 by default.' }),
  minReadySeconds: int32({
    proto: 4,
    omitZero: true,
    description: 'Seconds a new pod must be ready without any container crashing to count as available.',
  }),
  selector: required(
    field(LabelSelectorSchema, {
      proto: 2,
      immutable: true,
      description: 'Pods counted as replicas; must match the template labels. Cannot be updated.',
    }),
  ),
  template: field(PodTemplateSpecSchema, {
    proto: 3,
    description: 'Pods created when replicas are missing.',
  }),
};
type ReplicaSetSpecValue = Static<StructSchema<typeof replicaSetSpecFields>>;

export const ReplicaSetSpecSchema = struct('io.k8s.api.apps.v1.ReplicaSetSpec', replicaSetSpecFields, {
  validate: (spec, path) => validateReplicaSetSpec(spec, path),
});

/** Kubernetes' ValidateReplicaSetSpec (its empty-selector message names deployments, as Kubernetes' does). */
function validateReplicaSetSpec(spec: ReplicaSetSpecValue, path: string): FieldError[] {
  return [
    ...validateNonnegative(spec.replicas, child(path, 'replicas')),
    ...validateNonnegative(spec.minReadySeconds, child(path, 'minReadySeconds')),
    ...validateSelectorNotEmpty(spec.selector, child(path, 'selector'), 'deployment'),
    ...validateWorkloadTemplate(spec, path, 'ReplicaSet'),
  ];
}

export const ReplicaSetConditionSchema = workloadCondition('io.k8s.api.apps.v1.ReplicaSetCondition');

export const ReplicaSetStatusSchema = struct('io.k8s.api.apps.v1.ReplicaSetStatus', {
  replicas: required(
    int32({ proto: 1, default: 0, description: 'Most recently observed number of replicas.' }),
  ),
  fullyLabeledReplicas: int32({
    proto: 2,
    omitZero: true,
    description: 'Pods carrying all labels of the template.',
  }),
  readyReplicas: int32({ proto: 4, omitZero: true, description: 'Number of ready replicas.' }),
  availableReplicas: int32({
    proto: 5,
    omitZero: true,
    description: 'Replicas ready for at least minReadySeconds.',
  }),
  observedGeneration: int64({
    proto: 3,
    omitZero: true,
    description: 'Generation most recently observed by the controller.',
  }),
  conditions: list(ReplicaSetConditionSchema, {
    proto: 6,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Latest observations of the replica set state.',
  }),
});

export const ReplicaSetSchema = struct(
  'io.k8s.api.apps.v1.ReplicaSet',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(ReplicaSetSpecSchema, { proto: 2, description: 'Desired behaviour of the replica set.' }),
    status: field(ReplicaSetStatusSchema, {
      proto: 3,
      default: {},
      description: 'Most recently observed status.',
    }),
  },
  { description: 'Keeps a number of identical pods, chosen by a selector, running.' },
);
export type ReplicaSet = Static<typeof ReplicaSetSchema>;

export const ReplicaSetKind = defineKind({
  group: 'apps',
  versions: ['v1'],
  kind: 'ReplicaSet',
  plural: 'replicasets',
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  namespaced: true,
  schema: ReplicaSetSchema,
  subresources: {
    status: true,
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
  selectableFields: {
    'status.replicas': (rs) => String(rs.status?.replicas ?? 0),
  },
  columns: [
    nameColumn(),
    {
      name: 'Desired',
      type: 'integer',
      description: 'Desired number of replicas.',
      cell: (rs) => rs.spec?.replicas ?? 0,
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'Most recently observed number of replicas.',
      cell: (rs) => rs.status?.replicas ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'Number of ready replicas.',
      cell: (rs) => rs.status?.readyReplicas ?? 0,
    },
    ageColumn(),
    ...containerColumns<ReplicaSet>((rs) => rs.spec?.template),
    selectorColumn<ReplicaSet>((rs) => formatLabelSelector(rs.spec?.selector)),
  ],
});
