import type { Pod } from '@orch/api';
import { podAffinityInfo, termMatches } from '../framework/podAffinityTerms';

/** Whether one of the pod's required pod-affinity terms selects the other pod (as Kubernetes checks on pod assignment). */
export function affinityTermsMatchPod(pod: Pod, other: Pod): boolean {
  for (const term of podAffinityInfo(pod).requiredAffinity)
    if (termMatches(term, other, undefined)) return true;
  return false;
}
