import {
  CONTROLLER_REVISION_HASH_LABEL,
  newControllerRef,
  type ControllerRevision,
  type DaemonSet,
  type Pod,
} from '@orch/api';
import { computeHash } from '../deployment/podTemplateHash';
import { revisionHoldsTemplate, sortRevisions, templateRevisionData } from '../controller/templateRevision';

export const DAEMON_SET_GVK = { group: 'apps', version: 'v1', kind: 'DaemonSet' };

/** The data of a DaemonSet's revision: its template (see {@link templateRevisionData}). */
export const revisionData = (ds: DaemonSet): ReturnType<typeof templateRevisionData> =>
  templateRevisionData(ds);

/** Whether the revision holds the DaemonSet's current template (Kubernetes' Match). */
export const revisionMatches = (ds: DaemonSet, revision: ControllerRevision): boolean =>
  revisionHoldsTemplate(ds, revision);

/** The hash naming the DaemonSet's current revision, from its template and collision count. */
export function revisionHash(ds: DaemonSet): string {
  return computeHash(ds.spec?.template, ds.status?.collisionCount);
}

/**
 * A new revision of the DaemonSet (Kubernetes' snapshot): `<name>-<hash>`, labelled as its pods are
 * with the hash, with the DaemonSet's annotations and the DaemonSet as its controller.
 */
export function newRevision(ds: DaemonSet, hash: string, revision: number): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata?.name}-${hash}`,
      namespace: ds.metadata?.namespace,
      labels: { ...ds.spec?.template?.metadata?.labels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ...(ds.metadata?.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, DAEMON_SET_GVK)],
    },
    data: revisionData(ds),
    revision,
  } as ControllerRevision;
}

/** The highest revision number among the revisions, 0 for none. */
export function maxRevision(revisions: readonly ControllerRevision[]): number {
  let max = 0;
  for (const r of revisions) max = Math.max(max, r.revision ?? 0);
  return max;
}

/**
 * The old revisions to delete beyond revisionHistoryLimit (Kubernetes' cleanupHistory): the oldest
 * first, never one that a live pod was made from.
 */
export function revisionsToDelete(
  old: readonly ControllerRevision[],
  limit: number,
  pods: Iterable<Pod>,
): ControllerRevision[] {
  let toKill = old.length - limit;
  if (toKill <= 0) return [];
  const live = new Set<string>();
  for (const pod of pods) {
    const hash = pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
    if (hash) live.add(hash);
  }
  const out: ControllerRevision[] = [];
  for (const r of sortRevisions(old)) {
    if (toKill <= 0) break;
    if (live.has(r.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '')) continue;
    out.push(r);
    toKill--;
  }
  return out;
}
