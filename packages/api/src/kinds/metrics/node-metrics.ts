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
    // As the metrics server prints them: a column per resource, named after it.
    {
      name: 'cpu',
      type: 'string',
      format: 'quantity',
      description: 'CPU usage.',
      cell: (m) => m.usage?.cpu ?? '0',
    },
    {
      name: 'memory',
      type: 'string',
      format: 'quantity',
      description: 'Memory usage.',
      cell: (m) => m.usage?.memory ?? '0',
    },
    {
      name: 'Window',
      type: 'string',
      format: 'duration',
      description: 'The window of the usage.',
      cell: (m) => m.window ?? '0s',
    },
  ],
});
