import type { Pod } from '../../kinds/core/pod';

/** Whether a pod has a persistentVolumeClaim volume that names its claim. */
export function usesClaims(pod: Pod): boolean {
  return (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName);
}
