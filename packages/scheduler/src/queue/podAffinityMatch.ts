import { labelSelectorAsSelector, type Pod } from '@orch/api';

/** Whether one of the pod's required pod-affinity terms selects the other pod (as Kubernetes checks on pod assignment). */
export function affinityTermsMatchPod(pod: Pod, other: Pod): boolean {
  const terms = pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!terms || terms.length === 0) return false;
  const otherNamespace = other.metadata?.namespace ?? '';
  for (const term of terms) {
    const namespaces =
      term.namespaces && term.namespaces.length > 0 ? term.namespaces : [pod.metadata?.namespace ?? ''];
    if (!namespaces.includes(otherNamespace)) continue;
    try {
      if (labelSelectorAsSelector(term.labelSelector).matches(other.metadata?.labels ?? {})) return true;
    } catch {
      // An invalid selector matches nothing.
    }
  }
  return false;
}
