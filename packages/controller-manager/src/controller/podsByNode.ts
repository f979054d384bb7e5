import type { Pod } from '@orch/api';
import type { SharedIndexInformer } from '@orch/client';

const PODS_BY_NODE = 'spec.nodeName';

/**
 * The pods bound to a node, from the shared pod informer's index by spec.nodeName (added to the
 * informer by the first controller that asks).
 */
export function podsByNode(podInformer: SharedIndexInformer<Pod>): (nodeName: string) => Pod[] {
  if (!podInformer.indexer.getIndexers()[PODS_BY_NODE]) {
    podInformer.addIndexers({
      [PODS_BY_NODE]: (pod: Pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []),
    });
  }
  return (nodeName) => podInformer.indexer.byIndex(PODS_BY_NODE, nodeName);
}
