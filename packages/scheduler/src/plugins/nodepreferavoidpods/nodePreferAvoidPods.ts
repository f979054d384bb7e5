import { getControllerOf, type Pod } from '@orch/api';
import type { CycleState } from '../../framework/cycleState';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces';
import type { NodeInfo } from '../../framework/nodeInfo';

export const NODE_PREFER_AVOID_PODS = 'NodePreferAvoidPods';
/** The node annotation listing the controllers whose pods the node would rather not run (JSON AvoidPods). */
export const PREFER_AVOID_PODS_ANNOTATION = 'scheduler.alpha.kubernetes.io/preferAvoidPods';

/** The controllers whose pods the annotation can steer away. */
const AVOIDABLE_KINDS = new Set(['ReplicationController', 'ReplicaSet']);

/** One entry of the annotation (Kubernetes' PreferAvoidPodsEntry). */
export interface PreferAvoidPodsEntry {
  podSignature?: { podController?: { kind?: string; uid?: string; [field: string]: unknown } };
  evictionTime?: string;
  reason?: string;
  message?: string;
}

/** The annotation's value (Kubernetes' AvoidPods). */
export interface AvoidPods {
  preferAvoidPods?: PreferAvoidPodsEntry[];
}

/** The AvoidPods of a node's annotations; throws when the annotation is not valid AvoidPods JSON. */
export function avoidPodsFromAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
): AvoidPods {
  const value = annotations?.[PREFER_AVOID_PODS_ANNOTATION];
  if (!value) return {};
  const parsed: unknown = JSON.parse(value);
  if (parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('AvoidPods must be an object');
  const entries = (parsed as AvoidPods).preferAvoidPods;
  if (entries !== undefined && entries !== null && !Array.isArray(entries))
    throw new Error('preferAvoidPods must be a list');
  return parsed as AvoidPods;
}

/**
 * Steers pods of a ReplicationController or ReplicaSet away from nodes whose preferAvoidPods
 * annotation names that controller (Kubernetes' NodePreferAvoidPods): such nodes score 0, every
 * other node (and every node for other pods, or with an unreadable annotation) MAX.
 */
export class NodePreferAvoidPods implements ScorePlugin {
  readonly name = NODE_PREFER_AVOID_PODS;

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const ref = getControllerOf(pod);
    if (!ref || !AVOIDABLE_KINDS.has(ref.kind)) return MAX_NODE_SCORE;
    let avoids: AvoidPods;
    try {
      avoids = avoidPodsFromAnnotations(nodeInfo.node?.metadata?.annotations);
    } catch {
      // an annotation that cannot be read does not keep pods away
      return MAX_NODE_SCORE;
    }
    for (const entry of avoids.preferAvoidPods ?? []) {
      const controller = entry?.podSignature?.podController;
      if (controller?.kind === ref.kind && controller?.uid === ref.uid) return 0;
    }
    return MAX_NODE_SCORE;
  }
}
