import type { Static } from '@sinclair/typebox';
import { field, int32, str, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { child } from '../../validation/field-error';
import { validateNonnegative } from '../apps/int-or-percent';
import { ageColumn, nameColumn } from '../columns';

export const ScaleSpecSchema = struct(
  'io.k8s.api.autoscaling.v1.ScaleSpec',
  { replicas: int32({ proto: 1, description: 'Desired number of instances of the scaled object.' }) },
  { validate: (spec, path) => validateNonnegative(spec.replicas, child(path, 'replicas')) },
);

export const ScaleStatusSchema = struct('io.k8s.api.autoscaling.v1.ScaleStatus', {
  replicas: int32({ proto: 1, description: 'Actual number of observed instances of the scaled object.' }),
  selector: str({ proto: 2, description: 'Label selector of the pods counted in replicas, in string form.' }),
});

export const ScaleSchema = struct(
  'io.k8s.api.autoscaling.v1.Scale',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    spec: field(ScaleSpecSchema, { proto: 2, description: 'Desired state of the scaled object.' }),
    status: field(ScaleStatusSchema, { proto: 3, description: 'Current state of the scaled object.' }),
  },
  { description: 'The desired and observed replica count of a scalable resource: its scale subresource.' },
);
export type Scale = Static<typeof ScaleSchema>;

/**
 * The body of every scale subresource; not a resource of its own. Its table is what
 * `kubectl get <kind> <name> --subresource=scale` prints.
 */
export const ScaleKind = defineKind({
  group: 'autoscaling',
  versions: ['v1'],
  kind: 'Scale',
  plural: 'scales',
  singular: 'scale',
  namespaced: true,
  schema: ScaleSchema,
  verbs: [],
  virtual: true,
  columns: [
    // Kubernetes' scale table marks no column as the name column.
    { ...nameColumn(), format: '' },
    {
      name: 'Desired',
      type: 'integer',
      description: ScaleSpecSchema.properties.replicas.description!,
      cell: (scale) => scale.spec?.replicas ?? 0,
    },
    {
      name: 'Available',
      type: 'integer',
      description: ScaleStatusSchema.properties.replicas.description!,
      cell: (scale) => scale.status?.replicas ?? 0,
    },
    ageColumn(),
  ],
});
