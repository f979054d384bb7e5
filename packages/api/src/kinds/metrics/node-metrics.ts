import type { Static } from '@sinclair/typebox';
import { map, quantity, str, struct, time } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { nameColumn } from '../columns';

export const NodeMetricsSchema = struct(
  'io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    timestamp: time({
      proto: 2,
      description: 'The end of the window the usage was measured over (when the sample was taken).',
    }),
    window: str({ proto: 3, description: 'The duration the usage was measured over (a Go duration).' }),
    usage: map(quantity(), {
      proto: 4,
      description: 'The memory and CPU usage of the node over the window.',
    }),
  },
  { description: 'The resource usage of a node, as the resource metrics API reports it.' },
);
export type NodeMetrics = Static<typeof NodeMetricsSchema>;

/**
 * metrics.k8s.io/v1beta1 nodes: the usage of each node, computed from its node agent's resource
 * usage summary when read (get and list only; nothing is stored).
 */
export const NodeMetricsKind = defineKind({
  group: 'metrics.k8s.io',
  versions: ['v1beta1'],
  kind: 'NodeMetrics',
  plural: 'nodes',
  singular: 'nodemetrics',
  namespaced: false,
  schema: NodeMetricsSchema,
  verbs: ['get', 'list'],
  virtual: true,
  jsonOnly: true,
  columns: [
    nameColumn(),
    { name: 'CPU', type: 'string', description: 'CPU usage.', cell: (m) => m.usage?.cpu ?? '' },
    { name: 'Memory', type: 'string', description: 'Memory usage.', cell: (m) => m.usage?.memory ?? '' },
    { name: 'Window', type: 'string', description: 'The window of the usage.', cell: (m) => m.window ?? '' },
  ],
});
