import type { LabelSelectorLike, ReplicationController } from '@orch/api';

/**
 * A ReplicationController's selector, a plain label map, as the label selector a ReplicaSet would
 * carry: its labels as matchLabels; no selector at all selects nothing.
 */
export function replicationControllerSelector(rc: ReplicationController): LabelSelectorLike | undefined {
  const selector = rc.spec?.selector;
  return selector ? { matchLabels: { ...selector } } : undefined;
}
