import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import { errorMessage, type FieldError } from '../../validation/field-error';
import {
  EvictionKind,
  EvictionSchema,
  PodDisruptionBudgetKind,
  PodDisruptionBudgetSpecSchema,
  PodDisruptionBudgetStatusSchema,
  type PodDisruptionBudget,
} from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const run = (schema: TSchema, value: unknown, path: string): string[] =>
  (structHooks(schema)!.validate!(value, path, { root: value }) as FieldError[]).map(errorMessage);

describe('policy/v1 PodDisruptionBudget', () => {
  it('has Kubernetes protobuf numbers', () => {
    expect(protos(PodDisruptionBudgetSpecSchema)).toEqual({
      minAvailable: 1,
      selector: 2,
      maxUnavailable: 3,
      unhealthyPodEvictionPolicy: 4,
    });
    expect(protos(PodDisruptionBudgetStatusSchema)).toEqual({
      observedGeneration: 1,
      disruptedPods: 2,
      disruptionsAllowed: 3,
      currentHealthy: 4,
      desiredHealthy: 5,
      expectedPods: 6,
      conditions: 7,
    });
    const minAvailable = PodDisruptionBudgetSpecSchema.properties.minAvailable as unknown as Record<
      string,
      unknown
    >;
    expect(minAvailable[OrchKeyword.special]).toBe('intOrString');
    const selector = PodDisruptionBudgetSpecSchema.properties.selector as unknown as Record<string, unknown>;
    expect(selector['x-kubernetes-patch-strategy']).toBe('replace');
    expect(PodDisruptionBudgetKind.shortNames).toEqual(['pdb']);
    // served in both versions, stored in policy/v1
    expect(PodDisruptionBudgetKind.versions).toEqual(['v1', 'v1beta1']);
    expect(Object.keys(PodDisruptionBudgetKind.deprecatedVersions!)).toEqual(['v1beta1']);
  });

  it('validates minAvailable and maxUnavailable with Kubernetes messages', () => {
    expect(run(PodDisruptionBudgetSpecSchema, { minAvailable: 1, maxUnavailable: 1 }, 'spec')[0]).toMatch(
      /^spec: Invalid value: .*: minAvailable and maxUnavailable cannot be both set$/,
    );
    expect(run(PodDisruptionBudgetSpecSchema, { minAvailable: -1 }, 'spec')).toEqual([
      'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(run(PodDisruptionBudgetSpecSchema, { maxUnavailable: '120%' }, 'spec')).toEqual([
      'spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%',
    ]);
    expect(run(PodDisruptionBudgetSpecSchema, { minAvailable: 'half' }, 'spec')[0]).toMatch(
      /^spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%'/,
    );
    expect(run(PodDisruptionBudgetSpecSchema, { minAvailable: '50%' }, 'spec')).toEqual([]);
    expect(
      run(
        PodDisruptionBudgetSpecSchema,
        { minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
        'spec',
      ),
    ).toEqual([]);
    expect(run(PodDisruptionBudgetSpecSchema, { unhealthyPodEvictionPolicy: 'Sometimes' }, 'spec')).toEqual([
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ]);
  });

  it('prints NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE', () => {
    const now = new Date('2021-01-03T00:00:00Z');
    const pdb: PodDisruptionBudget = {
      metadata: { name: 'web', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: { minAvailable: '50%' },
      status: { disruptionsAllowed: 2 },
    };
    expect(PodDisruptionBudgetKind.columns!.map((c) => [c.name, c.cell(pdb, now)])).toEqual([
      ['Name', 'web'],
      ['Min Available', '50%'],
      ['Max Unavailable', 'N/A'],
      ['Allowed Disruptions', 2],
      ['Age', '2d'],
    ]);
  });
});

describe('policy/v1 Eviction', () => {
  it('is the virtual body of pods/eviction', () => {
    expect(EvictionKind).toMatchObject({
      group: 'policy',
      versions: ['v1', 'v1beta1'],
      verbs: [],
      virtual: true,
      namespaced: true,
    });
    expect(protos(EvictionSchema)).toMatchObject({ metadata: 1, deleteOptions: 2 });
  });
});
