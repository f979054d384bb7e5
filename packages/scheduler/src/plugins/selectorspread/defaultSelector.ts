import {
  everythingLabels,
  labelSelectorAsSelector,
  selectorFromSet,
  type LabelSelector,
  type LabelsSelector,
  type LabelRequirement,
  type Pod,
} from '@orch/api';
import type { WorkloadListers } from '../../framework/interfaces';

type LabelMap = Readonly<Record<string, string>> | null | undefined;

const hasKeys = (m: LabelMap): m is Readonly<Record<string, string>> => !!m && Object.keys(m).length > 0;

/**
 * The requirements of the LabelSelector-based owners (ReplicaSets, StatefulSets) that select the pod.
 * Like Kubernetes' GetPodReplicaSets/GetPodStatefulSets: none for a pod without labels, and none at
 * all when one of the namespace's selectors is invalid.
 */
function selectingRequirements(
  pod: Pod,
  selectors: readonly (LabelSelector | null | undefined)[],
): LabelRequirement[] {
  const labels = pod.metadata?.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  const reqs: LabelRequirement[] = [];
  try {
    for (const ls of selectors) {
      const selector = labelSelectorAsSelector(ls);
      // an owner with a nil or empty selector matches nothing, not everything
      if (selector.empty() || !selector.matches(labels)) continue;
      const { requirements, selectable } = selector.requirements();
      if (selectable) reqs.push(...requirements);
    }
  } catch {
    return [];
  }
  return reqs;
}

/**
 * Kubernetes' DefaultSelector: one selector made of the selectors of the Services,
 * ReplicationControllers, ReplicaSets and StatefulSets in the pod's namespace that select it. Empty
 * (counts nothing) when none does.
 */
export function defaultSelector(pod: Pod, listers: WorkloadListers): LabelsSelector {
  const namespace = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels ?? {};
  // the map selectors of Services and ReplicationControllers that match the pod merge into one set
  let set: Record<string, string> = {};
  for (const service of listers.services(namespace)) {
    const s = service.spec?.selector;
    // a Service without a selector matches nothing, not everything
    if (hasKeys(s) && selectorFromSet(s).matches(labels)) set = { ...set, ...s };
  }
  if (Object.keys(labels).length > 0) {
    for (const rc of listers.replicationControllers(namespace)) {
      const s = rc.spec?.selector;
      if (hasKeys(s) && selectorFromSet(s).matches(labels)) set = { ...set, ...s };
    }
  }
  const selector = Object.keys(set).length > 0 ? selectorFromSet(set) : everythingLabels();
  // ReplicaSets and StatefulSets that select the pod add their requirements
  return selector.add(
    ...selectingRequirements(
      pod,
      listers.replicaSets(namespace).map((rs) => rs.spec?.selector),
    ),
    ...selectingRequirements(
      pod,
      listers.statefulSets(namespace).map((ss) => ss.spec?.selector),
    ),
  );
}
