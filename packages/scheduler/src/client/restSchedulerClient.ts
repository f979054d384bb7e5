import { formatTime, getCondition, type ConditionLike, type Pod } from '@orch/api';
import { PatchType, type RestClient } from '@orch/client';
import type { SchedulerClient } from '../framework/interfaces';

export interface RestSchedulerClientOptions {
  /** The component recorded as the events' source (the profile's scheduler name). */
  component: string;
  /** This scheduler's identity (host name), recorded as reportingInstance. */
  instance?: string;
  /** Told about events that could not be written. */
  onEventError?: (err: unknown) => void;
  now?: () => number;
}

function podConditions(pod: Pod): ConditionLike[] | undefined {
  return pod.status?.conditions as unknown as ConditionLike[] | undefined;
}

/** Whether the pod already carries the condition with the same status, reason and message. */
export function conditionUnchanged(
  pod: Pod,
  condition: { type: string; status: string; reason?: string; message?: string },
): boolean {
  const existing = getCondition(podConditions(pod), condition.type);
  return (
    existing !== undefined &&
    existing.status === condition.status &&
    (existing.reason ?? '') === (condition.reason ?? '') &&
    (existing.message ?? '') === (condition.message ?? '')
  );
}

/** The scheduler's writes over the REST API: pods/binding, pods/status and core/v1 Events. */
export class RestSchedulerClient implements SchedulerClient {
  private readonly now: () => number;

  constructor(
    private readonly rest: RestClient,
    private readonly opts: RestSchedulerClientOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  private pods(namespace: string | undefined) {
    return this.rest.verb('POST').group('').version('v1').namespace(namespace).resource('pods');
  }

  async bind(pod: Pod, nodeName: string): Promise<void> {
    const name = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace;
    await this.pods(namespace)
      .name(name)
      .subresource('binding')
      .body({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}) },
        target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
      })
      .do();
  }

  async updatePodCondition(
    pod: Pod,
    condition: { type: string; status: string; reason?: string; message?: string },
    nominatedNodeName?: string,
  ): Promise<void> {
    const nominationUnchanged =
      nominatedNodeName === undefined || (pod.status?.nominatedNodeName ?? '') === nominatedNodeName;
    if (conditionUnchanged(pod, condition) && nominationUnchanged) return;
    const existing = getCondition(podConditions(pod), condition.type);
    const lastTransitionTime =
      existing && existing.status === condition.status && existing.lastTransitionTime
        ? existing.lastTransitionTime
        : formatTime(this.now());
    const status: Record<string, unknown> = {
      conditions: [{ ...condition, lastProbeTime: null, lastTransitionTime }],
    };
    if (!nominationUnchanged) status.nominatedNodeName = nominatedNodeName;
    await this.rest
      .verb('PATCH')
      .group('')
      .version('v1')
      .namespace(pod.metadata?.namespace)
      .resource('pods')
      .name(pod.metadata?.name ?? '')
      .subresource('status')
      .body(JSON.stringify({ status }), PatchType.StrategicMerge)
      .do();
  }

  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, action: string, message: string): void {
    const now = this.now();
    const timestamp = formatTime(now);
    const namespace = pod.metadata?.namespace ?? 'default';
    const name = pod.metadata?.name ?? '';
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${(BigInt(now) * 1_000_000n + BigInt(eventSeq++ % 1_000_000)).toString(16)}`, namespace },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace,
        name,
        uid: pod.metadata?.uid,
        resourceVersion: pod.metadata?.resourceVersion,
      },
      reason,
      message,
      type,
      action,
      source: { component: this.opts.component },
      reportingComponent: this.opts.component,
      reportingInstance: this.opts.instance ?? '',
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
    };
    this.pods(namespace)
      .resource('events')
      .body(body)
      .do()
      .catch((err: unknown) => this.opts.onEventError?.(err));
  }
}

let eventSeq = 0;
