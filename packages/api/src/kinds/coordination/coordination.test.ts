import type { TSchema } from '@sinclair/typebox';
import { OrchKeyword } from '../../schema/fields';
import { LeaseKind, LeaseSchema, LeaseSpecSchema } from './index';

const protos = (s: { properties: Record<string, TSchema> }) =>
  Object.fromEntries(
    Object.entries(s.properties).map(([k, v]) => [k, (v as Record<string, unknown>)[OrchKeyword.proto]]),
  );

describe('coordination.k8s.io/v1 Lease', () => {
  it('has Kubernetes protobuf numbers and special types', () => {
    expect(protos(LeaseSchema)).toEqual({ apiVersion: undefined, kind: undefined, metadata: 1, spec: 2 });
    expect(protos(LeaseSpecSchema)).toEqual({
      holderIdentity: 1,
      leaseDurationSeconds: 2,
      acquireTime: 3,
      renewTime: 4,
      leaseTransitions: 5,
    });
    expect((LeaseSpecSchema.properties.renewTime as Record<string, unknown>)[OrchKeyword.special]).toBe(
      'microTime',
    );
  });

  it('prints NAME HOLDER AGE', () => {
    const now = new Date('2021-01-01T00:10:00Z');
    const lease = {
      metadata: { name: 'kube-scheduler', creationTimestamp: '2021-01-01T00:00:00Z' },
      spec: { holderIdentity: 'node-1_abc' },
    };
    expect(LeaseKind.columns!.map((c) => c.name)).toEqual(['Name', 'Holder', 'Age']);
    expect(LeaseKind.columns!.map((c) => c.cell(lease, now))).toEqual([
      'kube-scheduler',
      'node-1_abc',
      '10m',
    ]);
    expect(LeaseKind.columns![1]!.cell({ metadata: { name: 'x' } }, now)).toBe('');
    expect(LeaseKind.namespaced).toBe(true);
  });
});
