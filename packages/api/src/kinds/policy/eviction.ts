import type { Static } from '@sinclair/typebox';
import { field, struct } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { DeleteOptionsSchema, objectMeta, typeMeta } from '../../meta';

export const EvictionSchema = struct(
  'io.k8s.api.policy.v1.Eviction',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    deleteOptions: field(DeleteOptionsSchema, {
      proto: 2,
      description: 'Options for the deletion of the pod.',
    }),
  },
  {
    description:
      "Asks for a pod to be evicted within its disruption budgets; created as the pod's eviction subresource.",
  },
);
export type Eviction = Static<typeof EvictionSchema>;

/** The body of the pods/eviction subresource; never stored nor served as a resource of its own. */
export const EvictionKind = defineKind({
  group: 'policy',
  versions: ['v1', 'v1beta1'],
  kind: 'Eviction',
  plural: 'evictions',
  singular: 'eviction',
  namespaced: true,
  schema: EvictionSchema,
  verbs: [],
  virtual: true,
});
