import type { Static } from '@sinclair/typebox';
import { field, int32, int64, list, str, stringMap, struct, time } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child, invalid, notSupported, required as requiredError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { formatLabels, layoutContainerCells } from './pod-columns';
import { PodTemplateSpecSchema } from './pod-spec';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

const nonNegative = (value: number | undefined, path: string): FieldErrorLike[] =>
  value !== undefined && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];

export const ReplicationControllerSpecSchema = struct(
  core('ReplicationControllerSpec'),
  {
    replicas: int32({ proto: 1, default: 1, description: 'Desired number of pods; 1 by default.' }),
    minReadySeconds: int32({
      proto: 4,
      omitZero: true,
      description: 'Seconds a new pod must be ready to count as available.',
    }),
    selector: stringMap({
      proto: 2,
      mapType: 'atomic',
      description: "Labels of the pods counted; the template's labels by default.",
    }),
    template: field(PodTemplateSpecSchema, {
      proto: 3,
      description: 'Pods created when replicas are missing.',
    }),
  },
  {
    // Kubernetes' ValidateReplicationControllerSpec and ValidatePodTemplateSpecForRC.
    validate: (spec, path) => {
      const errs: FieldErrorLike[] = [
        ...nonNegative(spec.minReadySeconds, child(path, 'minReadySeconds')),
        ...(Object.keys(spec.selector ?? {}).length === 0 ? [requiredError(child(path, 'selector'))] : []),
        ...nonNegative(spec.replicas, child(path, 'replicas')),
      ];
      const templatePath = child(path, 'template');
      const template = spec.template;
      if (!template) return [...errs, requiredError(templatePath)];
      const selector = spec.selector ?? {};
      const labels = template.metadata?.labels ?? {};
      if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
        errs.push(
          invalid(
            child(child(templatePath, 'metadata'), 'labels'),
            labels,
            '`selector` does not match template `labels`',
          ),
        );
      }
      const podSpecPath = child(templatePath, 'spec');
      if (template.spec && template.spec.restartPolicy !== 'Always') {
        errs.push(
          notSupported(child(podSpecPath, 'restartPolicy'), template.spec.restartPolicy ?? '', ['Always']),
        );
      }
      if (template.spec?.activeDeadlineSeconds !== undefined) {
        errs.push(
          invalid(
            child(podSpecPath, 'activeDeadlineSeconds'),
            template.spec.activeDeadlineSeconds,
            'activeDeadlineSeconds in ReplicationController is not Supported',
          ),
        );
      }
      return errs;
    },
  },
);
export type ReplicationControllerSpec = Static<typeof ReplicationControllerSpecSchema>;

export const ReplicationControllerConditionSchema = struct(core('ReplicationControllerCondition'), {
  type: str({ proto: 1, description: 'Type of the condition, e.g. ReplicaFailure.' }),
  status: str({ proto: 2, enum: ['True', 'False', 'Unknown'], description: 'True, False or Unknown.' }),
  lastTransitionTime: time({ proto: 3, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 4, description: 'Reason of the last transition.' }),
  message: str({ proto: 5, description: 'Human readable details of the last transition.' }),
});

export const ReplicationControllerStatusSchema = struct(core('ReplicationControllerStatus'), {
  replicas: int32({ proto: 1, description: 'Most recently observed number of replicas.' }),
  fullyLabeledReplicas: int32({
    proto: 2,
    description: "Pods carrying all labels of the controller's template.",
  }),
  readyReplicas: int32({ proto: 4, description: 'Number of ready replicas.' }),
  availableReplicas: int32({ proto: 5, description: 'Replicas ready for at least minReadySeconds.' }),
  observedGeneration: int64({
    proto: 3,
    description: 'Generation most recently observed by the controller.',
  }),
  conditions: list(ReplicationControllerConditionSchema, {
    proto: 6,
    patchMergeKey: 'type',
    patchStrategy: 'merge',
    description: 'Latest observations of the controller state.',
  }),
});
export type ReplicationControllerStatus = Static<typeof ReplicationControllerStatusSchema>;

export const ReplicationControllerSchema = struct(
  core('ReplicationController'),
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(ReplicationControllerSpecSchema, {
      proto: 2,
      description: 'Desired behavior of the controller.',
    }),
    status: field(ReplicationControllerStatusSchema, {
      proto: 3,
      description: 'Most recently observed status.',
    }),
  },
  {
    description: 'Keeps a number of identical pods running; the older form of a ReplicaSet.',
    // Kubernetes' SetDefaults_ReplicationController: selector and labels default to the template's labels.
    defaults: (rc) => {
      const labels = rc.spec?.template?.metadata?.labels;
      if (!labels || !rc.spec) return;
      if (Object.keys(rc.spec.selector ?? {}).length === 0) rc.spec.selector = { ...labels };
      rc.metadata ??= {};
      if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
    },
  },
);
export type ReplicationController = Static<typeof ReplicationControllerSchema>;

export const ReplicationControllerKind = defineKind({
  group: '',
  versions: ['v1'],
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  schema: ReplicationControllerSchema,
  subresources: {
    status: true,
    // As for the apps workloads; RC status has no selector: Kubernetes' scale endpoint renders spec.selector.
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
  selectableFields: {
    'status.replicas': (rc) => String(rc.status?.replicas ?? 0),
  },
  columns: [
    nameColumn(),
    {
      name: 'Desired',
      type: 'integer',
      description: 'Desired number of replicas.',
      cell: (rc) => rc.spec?.replicas ?? 0,
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'Most recently observed number of replicas.',
      cell: (rc) => rc.status?.replicas ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'Number of ready replicas.',
      cell: (rc) => rc.status?.readyReplicas ?? 0,
    },
    ageColumn(),
    {
      name: 'Containers',
      type: 'string',
      priority: 1,
      description: 'Names of each container in the template.',
      cell: (rc) => layoutContainerCells(rc.spec?.template?.spec?.containers).names,
    },
    {
      name: 'Images',
      type: 'string',
      priority: 1,
      description: 'Images referenced by each container in the template.',
      cell: (rc) => layoutContainerCells(rc.spec?.template?.spec?.containers).images,
    },
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: "Labels of the pods counted; the template's labels by default.",
      cell: (rc) => formatLabels(rc.spec?.selector),
    },
  ],
});
