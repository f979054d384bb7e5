import { parseTime, type Pod } from '@orch/api';
import { isPodReady, podReadyCondition, podRestarts } from '../controller/podUtil';

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

const time = (t: string | undefined): number => (t ? parseTime(t) : 0);

/**
 * Orders pods so that the ones to delete first come first (Kubernetes' ActivePodsWithRanks):
 * unscheduled before scheduled, Pending before Unknown before Running, not ready before ready,
 * more pods of the same owner on the node (rank) before fewer, ready for a shorter time before
 * longer, more restarts before fewer, newer before older.
 */
export function comparePodsForDeletion(a: Pod, b: Pod, rankA: number, rankB: number): number {
  const nodeA = a.spec?.nodeName ?? '';
  const nodeB = b.spec?.nodeName ?? '';
  if ((nodeA === '') !== (nodeB === '')) return nodeA === '' ? -1 : 1;
  const phaseA = PHASE_ORDER[a.status?.phase ?? 'Pending'] ?? 0;
  const phaseB = PHASE_ORDER[b.status?.phase ?? 'Pending'] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(a);
  const readyB = isPodReady(b);
  if (readyA !== readyB) return readyA ? 1 : -1;
  if (rankA !== rankB) return rankB - rankA;
  if (readyA && readyB) {
    const tA = time(podReadyCondition(a)?.lastTransitionTime);
    const tB = time(podReadyCondition(b)?.lastTransitionTime);
    if (tA !== tB) return tB - tA;
  }
  const restartsA = podRestarts(a);
  const restartsB = podRestarts(b);
  if (restartsA !== restartsB) return restartsB - restartsA;
  return time(b.metadata?.creationTimestamp) - time(a.metadata?.creationTimestamp);
}

/**
 * The `count` pods to delete: each pod is ranked by how many of `related` (pods of the same
 * owner family) share its node, then ordered with {@link comparePodsForDeletion}.
 */
export function podsToDelete(filtered: readonly Pod[], related: readonly Pod[], count: number): Pod[] {
  if (count >= filtered.length) return [...filtered];
  const perNode = new Map<string, number>();
  for (const p of related) {
    const node = p.spec?.nodeName;
    if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const ranked = filtered.map((pod) => {
    const node = pod.spec?.nodeName;
    return { pod, rank: node ? (perNode.get(node) ?? 0) : 0 };
  });
  ranked.sort((x, y) => comparePodsForDeletion(x.pod, y.pod, x.rank, y.rank));
  return ranked.slice(0, count).map((r) => r.pod);
}
