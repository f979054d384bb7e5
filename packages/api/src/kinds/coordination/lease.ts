import type { Static } from '@sinclair/typebox';
import { field, int32, microTime, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { ageColumn, nameColumn } from '../columns';

export const LeaseSpecSchema = struct('io.k8s.api.coordination.v1.LeaseSpec', {
  holderIdentity: str({ proto: 1, description: 'Identity of the current holder of the lease.' }),
  leaseDurationSeconds: int32({
    proto: 2,
    description:
      'Seconds candidates wait before forcibly acquiring the lease, counted from the last renewal.',
  }),
  acquireTime: microTime({ proto: 3, description: 'When the current holder acquired the lease.' }),
  renewTime: microTime({ proto: 4, description: 'When the current holder last renewed the lease.' }),
  leaseTransitions: int32({ proto: 5, description: 'Number of times the lease changed holders.' }),
});
export type LeaseSpec = Static<typeof LeaseSpecSchema>;

export const LeaseSchema = struct(
  'io.k8s.api.coordination.v1.Lease',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(LeaseSpecSchema, { proto: 2, description: 'Specification of the lease.' }),
  },
  { description: 'A time-limited lock held by one holder, for leader election and node heartbeats.' },
);
export type Lease = Static<typeof LeaseSchema>;

export const LeaseKind = defineKind({
  group: 'coordination.k8s.io',
  versions: ['v1'],
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  schema: LeaseSchema,
  columns: [
    nameColumn(),
    {
      name: 'Holder',
      type: 'string',
      description: 'Identity of the current holder of the lease.',
      cell: (lease) => lease.spec?.holderIdentity ?? '',
    },
    ageColumn(),
  ],
});
