import type { Static } from '@sinclair/typebox';
import { field, int32, int64, required, struct, time, type StructSchema } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { isValidPathSegmentName } from '../../util/names';
import { child, invalid, required as requiredError, type FieldError } from '../../validation/field-error';
import { ageColumn, nameColumn } from '../columns';
import { CrossVersionObjectReferenceSchema } from './cross-version-object-reference';

/**
 * The annotation carrying an autoscaling/v1 HorizontalPodAutoscaler's status conditions (AbleToScale,
 * ScalingActive, ScalingLimited) as a JSON list, as Kubernetes' v1 API carries them: part of the
 * status, written through the status subresource.
 */
export const HPA_CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';

/** One condition of the conditions annotation (Kubernetes' HorizontalPodAutoscalerCondition). */
export interface HorizontalPodAutoscalerCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** Lowest minReplicas Kubernetes accepts (scale to zero is behind a feature gate). */
export const MIN_REPLICAS_LOWER_BOUND = 1;

const horizontalPodAutoscalerSpecFields = {
  scaleTargetRef: required(
    field(CrossVersionObjectReferenceSchema, {
      proto: 1,
      description: 'The scaled resource; its pods are measured and its scale subresource set.',
    }),
  ),
  minReplicas: int32({ proto: 2, default: 1, description: 'Lower limit of replicas. Defaults to 1.' }),
  maxReplicas: required(int32({ proto: 3, description: 'Upper limit of replicas; not below minReplicas.' })),
  targetCPUUtilizationPercentage: int32({
    proto: 4,
    description: 'Target average CPU utilization, as a percentage of the requested CPU.',
  }),
};
type HorizontalPodAutoscalerSpecValue = Static<StructSchema<typeof horizontalPodAutoscalerSpecFields>>;

export const HorizontalPodAutoscalerSpecSchema = struct(
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec',
  horizontalPodAutoscalerSpecFields,
  { validate: (spec, path) => validateHorizontalPodAutoscalerSpec(spec, path) },
);

/** Kubernetes' validateHorizontalPodAutoscalerSpec, for the autoscaling/v1 fields. */
function validateHorizontalPodAutoscalerSpec(
  spec: HorizontalPodAutoscalerSpecValue,
  path: string,
): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.minReplicas !== undefined && spec.minReplicas < MIN_REPLICAS_LOWER_BOUND) {
    errors.push(
      invalid(
        child(path, 'minReplicas'),
        spec.minReplicas,
        `must be greater than or equal to ${MIN_REPLICAS_LOWER_BOUND}`,
      ),
    );
  }
  if (spec.maxReplicas < 1)
    errors.push(invalid(child(path, 'maxReplicas'), spec.maxReplicas, 'must be greater than 0'));
  if (spec.minReplicas !== undefined && spec.maxReplicas < spec.minReplicas) {
    errors.push(
      invalid(child(path, 'maxReplicas'), spec.maxReplicas, 'must be greater than or equal to `minReplicas`'),
    );
  }
  const ref = child(path, 'scaleTargetRef');
  if (spec.scaleTargetRef) {
    if (!spec.scaleTargetRef.kind) errors.push(requiredError(child(ref, 'kind')));
    else {
      for (const msg of isValidPathSegmentName(spec.scaleTargetRef.kind)) {
        errors.push(invalid(child(ref, 'kind'), spec.scaleTargetRef.kind, msg));
      }
    }
    if (!spec.scaleTargetRef.name) errors.push(requiredError(child(ref, 'name')));
    else {
      for (const msg of isValidPathSegmentName(spec.scaleTargetRef.name)) {
        errors.push(invalid(child(ref, 'name'), spec.scaleTargetRef.name, msg));
      }
    }
  }
  if (spec.targetCPUUtilizationPercentage !== undefined && spec.targetCPUUtilizationPercentage < 1) {
    errors.push(
      invalid(
        child(path, 'targetCPUUtilizationPercentage'),
        spec.targetCPUUtilizationPercentage,
        'must be greater than 0',
      ),
    );
  }
  return errors;
}

export const HorizontalPodAutoscalerStatusSchema = struct(
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerStatus',
  {
    observedGeneration: int64({
      proto: 1,
      description: 'Most recent generation observed by the autoscaler.',
    }),
    lastScaleTime: time({ proto: 2, description: 'When the autoscaler last changed the number of pods.' }),
    currentReplicas: required(
      int32({ proto: 3, description: 'Current number of replicas of the scaled pods.' }),
    ),
    desiredReplicas: required(
      int32({ proto: 4, description: 'Desired number of replicas as last computed.' }),
    ),
    currentCPUUtilizationPercentage: int32({
      proto: 5,
      description: 'Current average CPU utilization of the pods, as a percentage of the requested CPU.',
    }),
  },
);

export const HorizontalPodAutoscalerSchema = struct(
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(HorizontalPodAutoscalerSpecSchema, { proto: 2, description: 'Behaviour of the autoscaler.' }),
    status: field(HorizontalPodAutoscalerStatusSchema, {
      proto: 3,
      description: 'Current state of the autoscaler.',
    }),
  },
  { description: "Scales a workload's replicas between bounds, from observed metrics." },
);
export type HorizontalPodAutoscaler = Static<typeof HorizontalPodAutoscalerSchema>;

/** The TARGETS cell: "<current>/<target>" for the CPU utilization metric, "<none>" without a target. */
function targetsCell(hpa: HorizontalPodAutoscaler): string {
  const target = hpa.spec?.targetCPUUtilizationPercentage;
  if (target === undefined) return '<none>';
  const current = hpa.status?.currentCPUUtilizationPercentage;
  return `${current === undefined ? '<unknown>' : `${current}%`}/${target}%`;
}

export const HorizontalPodAutoscalerKind = defineKind({
  group: 'autoscaling',
  versions: ['v1'],
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  schema: HorizontalPodAutoscalerSchema,
  subresources: { status: true },
  columns: [
    nameColumn(),
    {
      name: 'Reference',
      type: 'string',
      description: 'The scaled resource, as kind/name.',
      cell: (hpa) => `${hpa.spec?.scaleTargetRef.kind ?? ''}/${hpa.spec?.scaleTargetRef.name ?? ''}`,
    },
    { name: 'Targets', type: 'string', description: 'Current and target metric values.', cell: targetsCell },
    {
      name: 'MinPods',
      type: 'string',
      description: 'Lower limit of replicas.',
      cell: (hpa) => (hpa.spec?.minReplicas === undefined ? '<unset>' : String(hpa.spec.minReplicas)),
    },
    {
      name: 'MaxPods',
      type: 'string',
      description: 'Upper limit of replicas.',
      cell: (hpa) => hpa.spec?.maxReplicas ?? 0,
    },
    {
      name: 'Replicas',
      type: 'string',
      description: 'Current number of replicas.',
      cell: (hpa) => hpa.status?.currentReplicas ?? 0,
    },
    ageColumn(),
  ],
});
