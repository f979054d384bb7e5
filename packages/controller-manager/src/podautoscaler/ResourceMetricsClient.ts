/** A pod's usage of a resource in milli-units, with when and over which window it was measured. */
export interface PodMetric {
  value: number;
  timestampMs: number;
  windowMs: number;
}

/** The usage of each pod, by pod name (Kubernetes' PodMetricsInfo). */
export type PodMetricsInfo = Map<string, PodMetric>;

/** Where the autoscaler reads the resource usage of pods (Kubernetes' MetricsClient, resource part). */
export interface ResourceMetricsClient {
  /**
   * The usage of `resource` by the pods `selector` (a label selector string) selects in `namespace`,
   * with the time of the first sample; rejects with the reason when there are none.
   */
  getResourceMetric(
    resource: string,
    namespace: string,
    selector: string,
  ): Promise<{ metrics: PodMetricsInfo; timestampMs: number }>;
}
