import {
  formatTime,
  getCondition,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  PodKind,
  type ConditionLike,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
} from '@orch/api';
import {
  clientFor,
  isNotFound,
  type EventRecorder,
  type KubeObject,
  type RestClient,
  type TypedClient,
} from '@orch/client';
import type { SchedulerClient } from '../framework/interfaces';

export interface RestSchedulerClientOptions {
  /** Records the Scheduled and FailedScheduling events. */
  recorder: EventRecorder;
  now?: () => number;
}

type PodCondition = { type: string; status: string; reason?: string; message?: string };

function podConditions(pod: Pod): ConditionLike[] | undefined {
  return pod.status?.conditions as unknown as ConditionLike[] | undefined;
}

/** Whether the pod already carries the condition with the same status, reason and message. */
export function conditionUnchanged(pod: Pod, condition: PodCondition): boolean {
  const existing = getCondition(podConditions(pod), condition.type);
  return (
    existing !== undefined &&
    existing.status === condition.status &&
    (existing.reason ?? '') === (condition.reason ?? '') &&
    (existing.message ?? '') === (condition.message ?? '')
  );
}

/** The scheduler's writes over the REST API: pods/binding, pods/status and Events. */
export class RestSchedulerClient implements SchedulerClient {
  private readonly pods: TypedClient<Pod & KubeObject>;
  private readonly volumes: TypedClient<PersistentVolume>;
  private readonly claims: TypedClient<PersistentVolumeClaim>;
  private readonly now: () => number;

  constructor(
    rest: RestClient,
    private readonly opts: RestSchedulerClientOptions,
  ) {
    this.pods = clientFor(rest, PodKind) as unknown as TypedClient<Pod & KubeObject>;
    this.now = opts.now ?? Date.now;
    this.volumes = clientFor(rest, PersistentVolumeKind);
    this.claims = clientFor(rest, PersistentVolumeClaimKind);
  }

  /** POST pods/<name>/binding with target {apiVersion: v1, kind: Node, name}. */
  async bind(pod: Pod, nodeName: string): Promise<void> {
    await this.pods.bind(pod as Pod & KubeObject, nodeName);
  }

  /**
   * Strategic-merge-patches pods/<name>/status with the condition (keeping its lastTransitionTime
   * while the status stays the same); nothing is written when the pod already says so.
   */
  async updatePodCondition(pod: Pod, condition: PodCondition, nominatedNodeName?: string): Promise<void> {
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
    // '' clears the nomination (null removes the field in a strategic merge patch).
    if (!nominationUnchanged) status.nominatedNodeName = nominatedNodeName || null;
    await this.pods.patch(
      pod.metadata?.name ?? '',
      'strategic',
      { status },
      {
        namespace: pod.metadata?.namespace ?? '',
        subresource: 'status',
      },
    );
  }

  /** DELETE the pod (with its uid as precondition, so that a replacement of the same name survives). */
  async deletePod(pod: Pod): Promise<void> {
    try {
      await this.pods.delete(pod.metadata?.name ?? '', {
        namespace: pod.metadata?.namespace ?? '',
        ...(pod.metadata?.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async patchPodStatus(pod: Pod, status: Record<string, unknown>): Promise<void> {
    await this.pods.patch(
      pod.metadata?.name ?? '',
      'strategic',
      { status },
      { namespace: pod.metadata?.namespace ?? '', subresource: 'status' },
    );
  }

  updatePersistentVolume(volume: PersistentVolume): Promise<PersistentVolume> {
    return this.volumes.update(volume);
  }

  updatePersistentVolumeClaim(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    return this.claims.update(claim);
  }

  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, _action: string, message: string): void {
    this.opts.recorder.event(pod as Pod & KubeObject, type, reason, message);
  }
}
