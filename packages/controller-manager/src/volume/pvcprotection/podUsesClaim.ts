import type { PersistentVolumeClaim, Pod } from '@orch/api';

/**
 * Whether the pod keeps the claim from going (Kubernetes' pvc-protection podUsesPVC): a scheduled
 * pod of the claim's namespace naming it in a persistentVolumeClaim volume, whatever its phase,
 * for as long as the pod exists. An unscheduled pod does not: it cannot start with a claim being
 * deleted.
 */
export function podUsesClaim(pod: Pod, claim: PersistentVolumeClaim): boolean {
  if (!pod.spec?.nodeName || pod.metadata?.namespace !== claim.metadata?.namespace) return false;
  return podClaimNames(pod).includes(claim.metadata?.name ?? '');
}

/** The names of the claims the pod's persistentVolumeClaim volumes refer to. */
export function podClaimNames(pod: Pod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : [],
  );
}
