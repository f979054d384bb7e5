import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import { columnDefinitions } from '../../table/table-convertor';
import {
  CrossVersionObjectReferenceSchema,
  HorizontalPodAutoscalerKind,
  HorizontalPodAutoscalerSpecSchema,
  HorizontalPodAutoscalerStatusSchema,
  ScaleKind,
  ScaleSchema,
  ScaleSpecSchema,
  ScaleStatusSchema,
  type HorizontalPodAutoscaler,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);

describe('autoscaling/v1 HorizontalPodAutoscaler', () => {
  it('has Kubernetes protobuf numbers and the minReplicas default', () => {
    expect(protos(HorizontalPodAutoscalerSpecSchema)).toEqual({
      scaleTargetRef: 1,
      minReplicas: 2,
      maxReplicas: 3,
      targetCPUUtilizationPercentage: 4,
    });
    expect(protos(HorizontalPodAutoscalerStatusSchema)).toEqual({
      observedGeneration: 1,
      lastScaleTime: 2,
      currentReplicas: 3,
      desiredReplicas: 4,
      currentCPUUtilizationPercentage: 5,
    });
    expect(protos(CrossVersionObjectReferenceSchema)).toEqual({ kind: 1, name: 2, apiVersion: 3 });
    expect(HorizontalPodAutoscalerSpecSchema.properties.minReplicas.default).toBe(1);
    expect(HorizontalPodAutoscalerSpecSchema.required).toEqual(['scaleTargetRef', 'maxReplicas']);
    expect(HorizontalPodAutoscalerKind.shortNames).toEqual(['hpa']);
    expect(HorizontalPodAutoscalerKind.subresources).toEqual({ status: true });
  });

  it('validates replica bounds with Kubernetes messages', () => {
    const spec = { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 0, maxReplicas: 0 };
    expect(run(HorizontalPodAutoscalerSpecSchema, spec, 'spec')).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
    ]);
    expect(
      run(HorizontalPodAutoscalerSpecSchema, { ...spec, minReplicas: 5, maxReplicas: 3 }, 'spec'),
    ).toEqual(['spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`']);
    expect(
      run(
        HorizontalPodAutoscalerSpecSchema,
        { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 3 },
        'spec',
      ),
    ).toEqual(['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']);
  });

  it('prints NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE', () => {
    const now = new Date('2021-01-01T03:00:00Z');
    const hpa: HorizontalPodAutoscaler = {
      metadata: { name: 'web', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 10,
        targetCPUUtilizationPercentage: 80,
      },
      status: { currentReplicas: 2, desiredReplicas: 2 },
    };
    expect(HorizontalPodAutoscalerKind.columns!.map((c) => [c.name, c.cell(hpa, now)])).toEqual([
      ['Name', 'web'],
      ['Reference', 'Deployment/web'],
      ['Targets', '<unknown>/80%'],
      ['MinPods', '1'],
      ['MaxPods', 10],
      ['Replicas', 2],
      ['Age', '3h'],
    ]);
    const measured = { ...hpa, status: { ...hpa.status!, currentCPUUtilizationPercentage: 45 } };
    expect(HorizontalPodAutoscalerKind.columns![2]!.cell(measured, now)).toBe('45%/80%');
    const noTarget = {
      ...hpa,
      spec: { ...hpa.spec!, targetCPUUtilizationPercentage: undefined, minReplicas: undefined },
    };
    expect(HorizontalPodAutoscalerKind.columns![2]!.cell(noTarget, now)).toBe('<none>');
    expect(HorizontalPodAutoscalerKind.columns![3]!.cell(noTarget, now)).toBe('<unset>');
    // MINPODS, MAXPODS and REPLICAS are string columns in Kubernetes, whatever their cells hold
    expect(HorizontalPodAutoscalerKind.columns!.slice(3, 6).map((c) => c.type)).toEqual([
      'string',
      'string',
      'string',
    ]);
  });
});

describe('autoscaling/v1 Scale', () => {
  it('is the virtual body of scale subresources', () => {
    expect(ScaleKind).toMatchObject({
      group: 'autoscaling',
      versions: ['v1'],
      kind: 'Scale',
      verbs: [],
      virtual: true,
    });
    expect(protos(ScaleSchema)).toMatchObject({ metadata: 1, spec: 2, status: 3 });
    expect(protos(ScaleSpecSchema)).toEqual({ replicas: 1 });
    expect(protos(ScaleStatusSchema)).toEqual({ replicas: 1, selector: 2 });
    expect(run(ScaleSpecSchema, { replicas: -1 }, 'spec')).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('prints NAME DESIRED AVAILABLE AGE, as kubectl get --subresource=scale shows it', () => {
    const now = new Date('2024-01-01T00:10:00Z');
    const scale = {
      metadata: { name: 'web', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { replicas: 5 },
      status: { replicas: 3, selector: 'app=web' },
    };
    expect(ScaleKind.columns!.map((c) => [c.name, c.type, c.priority ?? 0, c.cell(scale, now)])).toEqual([
      ['Name', 'string', 0, 'web'],
      ['Desired', 'integer', 0, 5],
      ['Available', 'integer', 0, 3],
      ['Age', 'string', 0, '10m'],
    ]);
    // unlike other tables, the scale table marks no column with the name format
    expect(columnDefinitions(ScaleKind).map((c) => c.format)).toEqual(['', '', '', '']);
    expect(ScaleKind.columns!.map((c) => c.cell({ metadata: { name: 'new' } }, now))).toEqual([
      'new',
      0,
      0,
      '<unknown>',
    ]);
  });
});
