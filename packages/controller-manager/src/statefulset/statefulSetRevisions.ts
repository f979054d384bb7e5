import {
  CONTROLLER_REVISION_HASH_LABEL,
  newControllerRef,
  type ControllerRevision,
  type Pod,
  type StatefulSet,
} from '@orch/api';
import { computeHash } from '../deployment/podTemplateHash';
import { revisionHoldsTemplate, sortRevisions, templateRevisionData } from '../controller/templateRevision';
import { podRevision, STATEFUL_SET_GVK } from './statefulPods';

/**
 * A revision of the set's template (Kubernetes' newRevision / NewControllerRevision): its data the
 * template patch, named `<set>-<hash>` by the hash of that data and the collision count, labelled
 * with the template's labels and the hash, annotated as the set is.
 */
export function newStatefulSetRevision(
  set: StatefulSet,
  revision: number,
  collisionCount: number,
): ControllerRevision {
  const data = templateRevisionData(set);
  const hash = computeHash(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${set.metadata?.name}-${hash}`,
      namespace: set.metadata?.namespace,
      labels: { ...set.spec?.template?.metadata?.labels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ...(set.metadata?.annotations ? { annotations: { ...set.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(set, STATEFUL_SET_GVK)],
    },
    data,
    revision,
  } as ControllerRevision;
}

/** The set as of a revision: its template replaced by the revision's (Kubernetes' ApplyRevision). */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
  const data = revision.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const { $patch: _patch, ...template } = data?.spec?.template ?? {};
  return { ...set, spec: { ...set.spec!, template: structuredClone(template) as never } };
}

/** The revision number after the newest of the revisions (sorted oldest first). */
export function nextRevision(sorted: readonly ControllerRevision[]): number {
  return sorted.length ? (sorted[sorted.length - 1]!.revision ?? 0) + 1 : 1;
}

/** The revisions holding the set's current template, oldest first. */
export function equalRevisions(
  set: StatefulSet,
  sorted: readonly ControllerRevision[],
): ControllerRevision[] {
  return sorted.filter((r) => revisionHoldsTemplate(set, r));
}

/**
 * Old revisions to delete beyond revisionHistoryLimit (Kubernetes' truncateHistory): the oldest
 * first, never the current or update revision or one a pod was made from.
 */
export function revisionsToTruncate(
  set: StatefulSet,
  revisions: readonly ControllerRevision[],
  pods: readonly Pod[],
  current: string,
  update: string,
): ControllerRevision[] {
  const live = new Set([current, update, ...pods.map(podRevision)]);
  const history = sortRevisions(revisions).filter((r) => !live.has(r.metadata?.name ?? ''));
  const limit = set.spec?.revisionHistoryLimit ?? 10;
  return history.length <= limit ? [] : history.slice(0, history.length - limit);
}

export { sortRevisions };
