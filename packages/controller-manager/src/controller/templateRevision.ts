import type { ControllerRevision } from '@orch/api';
import { canonicalJSON } from '../deployment/podTemplateHash';

/** A DaemonSet or StatefulSet: what its revisions record is its pod template. */
export interface TemplatedObject {
  spec?: { template?: unknown };
}

/**
 * The data of a DaemonSet's or StatefulSet's revision (Kubernetes' getPatch): a strategic merge
 * patch replacing the pod template, which `kubectl rollout undo` sends back to roll back to it.
 */
export function templateRevisionData(obj: TemplatedObject): { spec: { template: Record<string, unknown> } } {
  return {
    spec: { template: { ...structuredClone((obj.spec?.template ?? {}) as object), $patch: 'replace' } },
  };
}

/** Whether the revision holds the object's current template (Kubernetes' Match). */
export function revisionHoldsTemplate(obj: TemplatedObject, revision: ControllerRevision): boolean {
  return canonicalJSON(revision.data) === canonicalJSON(templateRevisionData(obj));
}

/** Revisions from the oldest (lowest revision number) to the newest. */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort(
    (a, b) =>
      (a.revision ?? 0) - (b.revision ?? 0) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
}
