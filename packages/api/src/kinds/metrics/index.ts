import { NodeMetricsKind } from './node-metrics';
import { PodMetricsKind } from './pod-metrics';

export * from './node-metrics';
export * from './pod-metrics';

/** metrics.k8s.io: the resource metrics API (read-only, computed from the node agents' usage). */
export const metricsKinds = [NodeMetricsKind, PodMetricsKind];
