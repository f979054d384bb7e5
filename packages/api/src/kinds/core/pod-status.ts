import type { Static } from '@sinclair/typebox';
import { list, str, struct, time } from '../../schema/fields';
import { ContainerStatusSchema } from './container-status';

const core = (name: string): string => `io.k8s.api.core.v1.${name}`;

export const PodConditionSchema = struct(core('PodCondition'), {
  type: str({
    proto: 1,
    description: 'Type of the condition, e.g. Ready, PodScheduled, Initialized, ContainersReady.',
  }),
  status: str({ proto: 2, enum: ['True', 'False', 'Unknown'], description: 'True, False or Unknown.' }),
  lastProbeTime: time({ proto: 3, description: 'Last time the condition was probed.' }),
  lastTransitionTime: time({ proto: 4, description: 'Last time the condition changed status.' }),
  reason: str({ proto: 5, description: 'One-word CamelCase reason of the last transition.' }),
  message: str({ proto: 6, description: 'Human readable details of the last transition.' }),
});
export type PodCondition = Static<typeof PodConditionSchema>;

export const PodIPSchema = struct(core('PodIP'), {
  ip: str({ proto: 1, format: 'ip', description: 'An IP address of the pod.' }),
});
export type PodIP = Static<typeof PodIPSchema>;

/**
 * PodStatus. The API server's pod strategy sets `phase: Pending` (and the QoS class) when a pod is
 * created, replacing whatever status the client sent; the declaration carries no default for it.
 */
export const PodStatusSchema = struct(
  core('PodStatus'),
  {
    phase: str({
      proto: 1,
      enum: ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'],
      description: 'Pending, Running, Succeeded, Failed or Unknown.',
    }),
    conditions: list(PodConditionSchema, {
      proto: 2,
      patchMergeKey: 'type',
      patchStrategy: 'merge',
      description: 'Current service state of the pod.',
    }),
    message: str({ proto: 3, omitZero: true, description: 'Why the pod is in this condition.' }),
    reason: str({
      proto: 4,
      omitZero: true,
      description: "Brief CamelCase reason of the pod's state, e.g. Evicted.",
    }),
    nominatedNodeName: str({
      proto: 11,
      omitZero: true,
      description: 'Node this pod preempted other pods on, while waiting to be scheduled.',
    }),
    hostIP: str({ proto: 5, omitZero: true, description: 'IP address of the node the pod is assigned to.' }),
    podIP: str({ proto: 6, omitZero: true, description: 'IP address allocated to the pod.' }),
    podIPs: list(PodIPSchema, {
      proto: 12,
      patchMergeKey: 'ip',
      patchStrategy: 'merge',
      description: 'IP addresses allocated to the pod; the first matches podIP.',
    }),
    startTime: time({ proto: 7, description: 'When the node agent acknowledged the pod.' }),
    initContainerStatuses: list(ContainerStatusSchema, {
      proto: 10,
      description: 'One entry per init container.',
    }),
    containerStatuses: list(ContainerStatusSchema, { proto: 8, description: 'One entry per container.' }),
    qosClass: str({
      proto: 9,
      enum: ['Guaranteed', 'Burstable', 'BestEffort'],
      description: 'Quality of service class: Guaranteed, Burstable or BestEffort.',
    }),
    ephemeralContainerStatuses: list(ContainerStatusSchema, {
      proto: 13,
      description: 'Statuses of ephemeral containers.',
    }),
  },
  {
    // Kubernetes' v1 PodStatus conversion: podIP is authoritative and podIPs[0] mirrors it.
    defaults: (status) => {
      const first = status.podIPs?.[0]?.ip;
      if (status.podIP && first !== status.podIP) status.podIPs = [{ ip: status.podIP }];
      else if (!status.podIP && first) status.podIP = first;
    },
  },
);
export type PodStatus = Static<typeof PodStatusSchema>;

/** Whether a pod phase is final: Succeeded or Failed; nothing runs in the pod any more. */
export function isPodPhaseTerminal(phase: string | null | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Whether the pod has finished: its phase is Succeeded or Failed (Kubernetes' IsPodTerminal). */
export function isPodTerminal(pod: { status?: { phase?: string | null } | null }): boolean {
  return isPodPhaseTerminal(pod.status?.phase);
}
