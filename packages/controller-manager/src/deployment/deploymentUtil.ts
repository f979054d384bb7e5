import { parseTime, resolveFenceposts, type Deployment, type ReplicaSet } from '@orch/api';
import { canonicalJSON, POD_TEMPLATE_HASH_LABEL } from './podTemplateHash';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';

/** Deployment annotations never copied to its ReplicaSets. */
const SKIPPED_ANNOTATIONS = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
]);

export type DeploymentStatus = NonNullable<Deployment['status']>;
export type DeploymentCondition = NonNullable<DeploymentStatus['conditions']>[number];

export const replicasOf = (obj: Deployment | ReplicaSet | undefined): number => obj?.spec?.replicas ?? 0;
export const desiredReplicas = (d: Deployment): number => d.spec?.replicas ?? 1;

export const isRollingUpdate = (d: Deployment): boolean =>
  (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** The surge allowed for the deployment (0 for Recreate). */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge ?? '25%', ru?.maxUnavailable ?? '25%', desiredReplicas(d)).maxSurge;
}

/** The unavailability allowed for the deployment, at most its replicas (0 for Recreate or 0 replicas). */
export function maxUnavailable(d: Deployment): number {
  const replicas = desiredReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  const { maxUnavailable: u } = resolveFenceposts(
    ru?.maxSurge ?? '25%',
    ru?.maxUnavailable ?? '25%',
    replicas,
  );
  return Math.min(u, replicas);
}

/** The revision annotation as a number; 0 when absent or unparsable. */
export function revisionOf(obj: { metadata?: { annotations?: Record<string, string> } } | undefined): number {
  const v = obj?.metadata?.annotations?.[REVISION_ANNOTATION];
  const n = v === undefined ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 0;
}

export function maxRevision(rss: readonly ReplicaSet[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

const creation = (rs: ReplicaSet): number =>
  rs.metadata?.creationTimestamp ? parseTime(rs.metadata.creationTimestamp) : 0;

/** Oldest first; ties by name (ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  return creation(a) - creation(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

/** Lowest revision first; ties by creation (ReplicaSetsByRevision). */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  return revisionOf(a) - revisionOf(b) || byCreation(a, b);
}

/** Whether two pod templates are equal once the pod-template-hash label is ignored (EqualIgnoreHash). */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  return canonicalJSON(stripHash(a)) === canonicalJSON(stripHash(b));
}

function stripHash(template: unknown): unknown {
  const t = template as { metadata?: { labels?: Record<string, string> } } | undefined;
  if (!t?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL]) return template;
  const labels = { ...t.metadata.labels };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return { ...t, metadata: { ...t.metadata, labels } };
}

/** The ReplicaSet running the deployment's current template: the oldest such one (FindNewReplicaSet). */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/** Sum of spec.replicas. */
export const specReplicas = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + replicasOf(rs), 0);
/** Sum of status.replicas. */
export const actualReplicas = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
export const readyReplicas = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
export const availableReplicas = (rss: readonly (ReplicaSet | undefined)[]): number =>
  rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);

/** ReplicaSets with replicas > 0. */
export const activeReplicaSets = (rss: readonly (ReplicaSet | undefined)[]): ReplicaSet[] =>
  rss.filter((rs): rs is ReplicaSet => !!rs && replicasOf(rs) > 0);

/** The size the new ReplicaSet may grow to now (Kubernetes' NewRSNewReplicas). */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (!isRollingUpdate(d)) return desiredReplicas(d);
  const current = specReplicas(allRSs);
  const maxTotal = desiredReplicas(d) + maxSurge(d);
  if (current >= maxTotal) return replicasOf(newRS);
  const scaleUp = Math.min(maxTotal - current, desiredReplicas(d) - replicasOf(newRS));
  return replicasOf(newRS) + scaleUp;
}

/** Whether the deployment's desired-replicas annotation differs on an active ReplicaSet (isScalingEvent). */
export function isScalingEvent(d: Deployment, rss: readonly (ReplicaSet | undefined)[]): boolean {
  for (const rs of activeReplicaSets(rss)) {
    const desired = rs.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION];
    if (desired === undefined) continue;
    if (Number(desired) !== desiredReplicas(d)) return true;
  }
  return false;
}

/** Whether the new ReplicaSet runs every desired pod, available (IsSaturated). */
export function isSaturated(d: Deployment, newRS: ReplicaSet | undefined): boolean {
  if (!newRS) return false;
  const desired = Number(newRS.metadata?.annotations?.[DESIRED_REPLICAS_ANNOTATION]);
  return (
    desired === desiredReplicas(d) &&
    replicasOf(newRS) === desiredReplicas(d) &&
    (newRS.status?.availableReplicas ?? 0) === desiredReplicas(d)
  );
}

/** Sets desired/max replicas annotations; true when they changed (SetReplicasAnnotations). */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = { ...(rs.metadata?.annotations ?? {}) };
  const changed =
    annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) ||
    annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
  annotations[MAX_REPLICAS_ANNOTATION] = String(max);
  rs.metadata = { ...rs.metadata, annotations };
  return changed;
}

/** Copies the deployment's annotations (except the controller's own) onto a ReplicaSet; true when changed. */
export function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet): boolean {
  const annotations = { ...(rs.metadata?.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (SKIPPED_ANNOTATIONS.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  rs.metadata = { ...rs.metadata, annotations };
  return changed;
}

/**
 * Brings the new ReplicaSet's annotations up to date (SetNewReplicaSetAnnotations): copied
 * deployment annotations, a higher revision (the replaced revision appended to the revision
 * history), and for a ReplicaSet being created the replicas annotations.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const annotations = { ...(rs.metadata?.annotations ?? {}) };
  const oldRevision = annotations[REVISION_ANNOTATION];
  if (revisionOf(rs) < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldRevision) {
      const history = annotations[REVISION_HISTORY_ANNOTATION];
      annotations[REVISION_HISTORY_ANNOTATION] = history ? `${history},${oldRevision}` : oldRevision;
    }
  }
  rs.metadata = { ...rs.metadata, annotations };
  if (!exists && setReplicasAnnotations(rs, desiredReplicas(d), desiredReplicas(d) + maxSurge(d)))
    changed = true;
  return changed;
}

/** The one active ReplicaSet, or the newest when none is active (FindActiveOrLatest). */
export function findActiveOrLatest(
  newRS: ReplicaSet | undefined,
  oldRSs: readonly ReplicaSet[],
): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** Whether the rollout is complete (DeploymentComplete). */
export function deploymentComplete(d: Deployment, status: DeploymentStatus): boolean {
  const replicas = desiredReplicas(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** Whether the new status shows progress over the deployment's current one (DeploymentProgressing). */
export function deploymentProgressing(d: Deployment, status: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * The old ReplicaSets to delete beyond revisionHistoryLimit (cleanupDeployment): the lowest
 * revisions first, only those scaled to 0 with no pods and an observed spec.
 */
export function replicaSetsToCleanup(oldRSs: readonly ReplicaSet[], limit: number | undefined): ReplicaSet[] {
  if (limit === undefined || limit === null) return [];
  const cleanable = oldRSs.filter((rs) => !rs.metadata?.deletionTimestamp);
  const diff = cleanable.length - limit;
  if (diff <= 0) return [];
  return [...cleanable]
    .sort(byRevision)
    .slice(0, diff)
    .filter(
      (rs) =>
        (rs.status?.replicas ?? 0) === 0 &&
        replicasOf(rs) === 0 &&
        (rs.metadata?.generation ?? 0) <= (rs.status?.observedGeneration ?? 0),
    );
}
