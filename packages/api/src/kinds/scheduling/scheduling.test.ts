import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword, structHooks } from '../../schema/fields';
import type { KindDeclaration } from '../../schema/kind';
import { compileKind } from '../../validation';
import { errorMessage, type FieldError } from '../../validation/field-error';
import { PriorityClassKind, PriorityClassSchema, type PriorityClass } from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );
const validate = (pc: PriorityClass): string[] =>
  (structHooks(PriorityClassSchema)!.validate!(pc, '', { root: pc }) as FieldError[]).map(errorMessage);

describe('scheduling.k8s.io/v1 PriorityClass', () => {
  it('has Kubernetes protobuf numbers, required value and the preemption default', () => {
    expect(protos(PriorityClassSchema)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: 1,
      value: 2,
      globalDefault: 3,
      description: 4,
      preemptionPolicy: 5,
    });
    expect(PriorityClassSchema.required).toEqual(['value']);
    expect(PriorityClassSchema.properties.preemptionPolicy.default).toBe('PreemptLowerPriority');
    expect(PriorityClassSchema.properties.preemptionPolicy.enum).toEqual(['PreemptLowerPriority', 'Never']);
    expect(PriorityClassKind.shortNames).toEqual(['pc']);
    expect(PriorityClassKind.namespaced).toBe(false);
  });

  it('reserves system- names and caps user priorities', () => {
    expect(validate({ metadata: { name: 'high' }, value: 1000000000 })).toEqual([]);
    expect(validate({ metadata: { name: 'high' }, value: 1000000001 })).toEqual([
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    ]);
    expect(validate({ metadata: { name: 'system-node-critical' }, value: 2000001000 })).toEqual([]);
    expect(validate({ metadata: { name: 'system-mine' }, value: 5 })).toEqual([
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only",
    ]);
  });

  it('forbids changing the value', () => {
    const old = { metadata: { name: 'a' }, value: 1 };
    expect(
      PriorityClassKind.validateUpdate!({ ...old, value: 2 }, old).map((e) => errorMessage(e as FieldError)),
    ).toEqual(['value: Forbidden: may not be changed in an update.']);
    expect(PriorityClassKind.validateUpdate!({ ...old, description: 'x' }, old)).toEqual([]);
    const compiled = compileKind(PriorityClassKind as KindDeclaration<any>);
    const stored = {
      metadata: { name: 'a', resourceVersion: '1' },
      value: 1,
      preemptionPolicy: 'Never' as const,
    };
    expect(
      compiled
        .validateUpdate({ ...stored, value: 2, preemptionPolicy: 'PreemptLowerPriority' }, stored)
        .map((e) => errorMessage(e)),
    ).toEqual([
      expect.stringMatching(/^preemptionPolicy: Invalid value: .*: field is immutable$/),
      'value: Forbidden: may not be changed in an update.',
    ]);
  });

  it('prints NAME VALUE GLOBAL-DEFAULT AGE', () => {
    const now = new Date('2021-01-02T00:00:00Z');
    const pc = {
      metadata: { name: 'high', creationTimestamp: '2021-01-01T00:00:00Z' },
      value: 1000,
      globalDefault: true,
    };
    expect(PriorityClassKind.columns!.map((c) => c.name)).toEqual(['Name', 'Value', 'Global-Default', 'Age']);
    expect(PriorityClassKind.columns!.map((c) => c.cell(pc, now))).toEqual(['high', 1000, true, '24h']);
    expect(PriorityClassKind.columns![2]!.cell({ value: 1 }, now)).toBe(false);
  });
});
