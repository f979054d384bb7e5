import type { Pod } from '@orch/api';
import type { QueueSortPlugin, QueuedPodInfo } from '../../framework/interfaces';

export const PRIORITY_SORT = 'PrioritySort';

/** The pod's priority (spec.priority resolved by admission; 0 when unset). */
export function podPriority(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}

/** Orders the active queue by priority (higher first), then by the time the pod was queued. */
export class PrioritySort implements QueueSortPlugin {
  readonly name = PRIORITY_SORT;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = podPriority(a.pod);
    const p2 = podPriority(b.pod);
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}
