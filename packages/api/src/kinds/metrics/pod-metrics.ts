import type { Static } from '@sinclair/typebox';
import { field, list, map, quantity, required, str, struct, time } from '../../schema/fields';
import { defineKind } from '../../schema/kind';
import { objectMeta, typeMeta } from '../../meta/object-meta';
import { tryParseQuantity, type Quantity } from '../../util/quantity';
import { nameColumn } from '../columns';

export const ContainerMetricsSchema = struct('io.k8s.metrics.pkg.apis.metrics.v1beta1.ContainerMetrics', {
  name: required(str({ proto: 1, description: 'The container name, as in the pod spec.' })),
  usage: map(quantity(), {
    proto: 2,
    description: 'The memory and CPU usage of the container over the window.',
  }),
});
export type ContainerMetrics = Static<typeof ContainerMetricsSchema>;

export const PodMetricsSchema = struct(
  'io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetrics',
  {
    ...typeMeta(),
    metadata: objectMeta(),
    timestamp: time({
      proto: 2,
      description: 'The end of the window the usage was measured over (when the sample was taken).',
    }),
    window: str({ proto: 3, description: 'The duration the usage was measured over (a Go duration).' }),
    containers: list(field(ContainerMetricsSchema), {
      proto: 4,
      description: 'The usage of each of the pod’s running containers.',
    }),
  },
  { description: 'The resource usage of a pod’s containers, as the resource metrics API reports it.' },
);
export type PodMetrics = Static<typeof PodMetricsSchema>;

/** The pod's usage of a resource: the sum over its containers ('0' when none reports it). */
function podUsage(m: PodMetrics, resource: string): string {
  let sum: Quantity | undefined;
  for (const c of m.containers ?? []) {
    const q = tryParseQuantity(c.usage?.[resource] ?? '');
    if (q) sum = sum ? sum.add(q) : q;
  }
  return sum?.toString() ?? '0';
}

/**
 * metrics.k8s.io/v1beta1 pods: the usage of each running pod, computed from its node agent's
 * resource usage summary when read (get and list only; nothing is stored).
 */
export const PodMetricsKind = defineKind({
  group: 'metrics.k8s.io',
  versions: ['v1beta1'],
  kind: 'PodMetrics',
  plural: 'pods',
  singular: 'podmetrics',
  namespaced: true,
  schema: PodMetricsSchema,
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
      description: 'CPU usage of the containers.',
      cell: (m) => podUsage(m, 'cpu'),
    },
    {
      name: 'memory',
      type: 'string',
      format: 'quantity',
      description: 'Memory usage of the containers.',
      cell: (m) => podUsage(m, 'memory'),
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
