import {
  CONTROLLER_REVISION_HASH_LABEL,
  type OwnerReference,
  type PersistentVolumeClaim,
  type Pod,
  type StatefulSet,
  type Volume,
} from '@orch/api';
import { isPodAvailable, isPodReady, podFromTemplate } from '../controller/podUtil';

export const STATEFUL_SET_GVK = { group: 'apps', version: 'v1', kind: 'StatefulSet' };
/** The label naming a stateful pod, which a Service can select a single replica by. */
export const STATEFUL_SET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** The label carrying a stateful pod's ordinal. */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

/** The first ordinal of the set's replicas (spec.ordinals.start, 0 by default). */
export function startOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

/** The last ordinal of the set's replicas. */
export function endOrdinal(set: StatefulSet): number {
  return startOrdinal(set) + (set.spec?.replicas ?? 1) - 1;
}

/** The name of the set's pod of an ordinal: `<set>-<ordinal>`. */
export function statefulPodName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata?.name}-${ordinal}`;
}

/** A pod's parent name and ordinal from its name (`<parent>-<ordinal>`); ordinal -1 when it has none. */
export function parentAndOrdinal(pod: Pod): { parent: string; ordinal: number } {
  const match = /^(.*)-([0-9]+)$/.exec(pod.metadata?.name ?? '');
  if (!match) return { parent: '', ordinal: -1 };
  const ordinal = Number(match[2]);
  return Number.isSafeInteger(ordinal) && ordinal <= 2 ** 31 - 1
    ? { parent: match[1]!, ordinal }
    : { parent: '', ordinal: -1 };
}

export function ordinalOf(pod: Pod): number {
  return parentAndOrdinal(pod).ordinal;
}

/** Whether the pod's ordinal is among the set's replicas. */
export function inOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const ordinal = ordinalOf(pod);
  return ordinal >= startOrdinal(set) && ordinal <= endOrdinal(set);
}

/** Whether the pod is the set's by its name (Kubernetes' isMemberOf). */
export function isMemberOf(set: StatefulSet, pod: Pod): boolean {
  return parentAndOrdinal(pod).parent === set.metadata?.name;
}

/** The claim of a volume claim template for the pod of an ordinal: `<claim>-<set>-<ordinal>`. */
export function claimName(set: StatefulSet, template: PersistentVolumeClaim, ordinal: number): string {
  return `${template.metadata?.name}-${set.metadata?.name}-${ordinal}`;
}

/**
 * The claims of a pod, by the name of the volume mounting each (Kubernetes'
 * getPersistentVolumeClaims): each template with its claim name, the set's namespace and the set's
 * selector labels added.
 */
export function podClaims(set: StatefulSet, ordinal: number): Map<string, PersistentVolumeClaim> {
  const claims = new Map<string, PersistentVolumeClaim>();
  for (const template of set.spec?.volumeClaimTemplates ?? []) {
    const { status: _status, ...claim } = structuredClone(template);
    claim.metadata = {
      ...claim.metadata,
      name: claimName(set, template, ordinal),
      namespace: set.metadata?.namespace,
      labels: { ...claim.metadata?.labels, ...set.spec?.selector?.matchLabels },
    };
    claims.set(template.metadata?.name ?? '', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      ...claim,
    } as PersistentVolumeClaim);
  }
  return claims;
}

/** Whether the pod's name, labels, hostname and subdomain are those of its ordinal in the set. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod);
  const labels = pod.metadata?.labels ?? {};
  return (
    ordinal >= 0 &&
    parent === set.metadata?.name &&
    pod.metadata?.namespace === set.metadata?.namespace &&
    labels[STATEFUL_SET_POD_NAME_LABEL] === pod.metadata?.name &&
    labels[POD_INDEX_LABEL] === String(ordinal) &&
    pod.spec?.hostname === pod.metadata?.name &&
    (pod.spec?.subdomain ?? '') === (set.spec?.serviceName ?? '')
  );
}

/** Gives the pod the identity of its ordinal (Kubernetes' updateIdentity). */
export function updateIdentity(set: StatefulSet, pod: Pod): void {
  const ordinal = ordinalOf(pod);
  const name = pod.metadata?.name ?? '';
  pod.metadata = {
    ...pod.metadata,
    namespace: set.metadata?.namespace,
    labels: {
      ...pod.metadata?.labels,
      [STATEFUL_SET_POD_NAME_LABEL]: name,
      [POD_INDEX_LABEL]: String(ordinal),
    },
  };
  const spec = pod.spec!;
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  else delete spec.subdomain;
}

/** Whether every claim template of the set is mounted through the pod's claim of that name. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  for (const [name, claim] of podClaims(set, ordinal)) {
    if (volumes.get(name)?.persistentVolumeClaim?.claimName !== claim.metadata?.name) return false;
  }
  return true;
}

/**
 * Mounts the pod's claims (Kubernetes' updateStorage): a volume per claim template, in the
 * templates' order, replacing the template's volume of that name; the other volumes follow.
 */
export function updateStorage(set: StatefulSet, pod: Pod): void {
  const claims = podClaims(set, ordinalOf(pod));
  if (claims.size === 0) return;
  const volumes: Volume[] = [...claims].map(([name, claim]) => ({
    name,
    persistentVolumeClaim: { claimName: claim.metadata?.name ?? '' },
  }));
  for (const v of pod.spec?.volumes ?? []) if (!claims.has(v.name)) volumes.push(v);
  pod.spec = { ...pod.spec!, volumes };
}

/** The set's pod of an ordinal, from the set's template (Kubernetes' newStatefulSetPod). */
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
  const pod = podFromTemplate(set, set.spec?.template, STATEFUL_SET_GVK);
  delete pod.metadata!.generateName;
  pod.metadata!.name = statefulPodName(set, ordinal);
  updateIdentity(set, pod);
  updateStorage(set, pod);
  return pod;
}

/** The revision a stateful pod was made from: its controller-revision-hash label, the revision's name. */
export function podRevision(pod: Pod): string {
  return pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '';
}

export function setPodRevision(pod: Pod, revision: string): void {
  pod.metadata = {
    ...pod.metadata,
    labels: { ...pod.metadata?.labels, [CONTROLLER_REVISION_HASH_LABEL]: revision },
  };
}

/**
 * The pod of an ordinal at the revision it should have (Kubernetes' newVersionedStatefulSetPod):
 * below the partition, or — without rolling update parameters — among the current replicas, the
 * current revision; from the partition up, the update revision.
 */
export function newVersionedStatefulSetPod(
  currentSet: StatefulSet,
  updateSet: StatefulSet,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
): Pod {
  const strategy = currentSet.spec?.updateStrategy;
  const start = startOrdinal(currentSet);
  const atCurrent =
    (strategy?.type === 'RollingUpdate' &&
      !strategy.rollingUpdate &&
      ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
    (strategy?.rollingUpdate !== undefined && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
  const pod = newStatefulSetPod(atCurrent ? currentSet : updateSet, ordinal);
  setPodRevision(pod, atCurrent ? currentRevision : updateRevision);
  return pod;
}

/** Created: the server has given it a phase. */
export const isCreated = (pod: Pod): boolean => Boolean(pod.status?.phase);
export const isTerminating = (pod: Pod): boolean => Boolean(pod.metadata?.deletionTimestamp);
export const isFailed = (pod: Pod): boolean => pod.status?.phase === 'Failed';
export const isSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Succeeded';
export const isPending = (pod: Pod): boolean => pod.status?.phase === 'Pending';
export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}
/** Running, ready and not being deleted. */
export const isHealthy = (pod: Pod): boolean => isRunningAndReady(pod) && !isTerminating(pod);

/** Pods from the highest ordinal down. */
export function descendingOrdinal(pods: Pod[]): Pod[] {
  return [...pods].sort((a, b) => ordinalOf(b) - ordinalOf(a));
}

/**
 * The owner references a pod's claim should have for the set's retention policy (Kubernetes'
 * updateClaimOwnerRefForSetAndPod): the set's when claims go with the set (whenDeleted Delete), the
 * pod's when claims go with pods removed by a scale down (whenScaled Delete) and the pod is one of
 * them; the claim's other owners are kept.
 */
export function claimOwnerReferences(
  set: StatefulSet,
  pod: Pod,
  claim: PersistentVolumeClaim,
): OwnerReference[] {
  const policy = set.spec?.persistentVolumeClaimRetentionPolicy;
  const setUID = set.metadata?.uid;
  const podUID = pod.metadata?.uid;
  const scaledDown = ordinalOf(pod) > endOrdinal(set) || ordinalOf(pod) < startOrdinal(set);
  const whenDeleted = policy?.whenDeleted === 'Delete';
  const whenScaled = policy?.whenScaled === 'Delete';
  const wantSet = whenDeleted && !(whenScaled && scaledDown);
  const wantPod = whenScaled && scaledDown;
  const refs = (claim.metadata?.ownerReferences ?? []).filter((r) => r.uid !== setUID && r.uid !== podUID);
  if (wantSet)
    refs.push({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      name: set.metadata?.name ?? '',
      uid: setUID ?? '',
    });
  if (wantPod && podUID)
    refs.push({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: podUID });
  return refs;
}

/** Whether the claim has the owner references the retention policy asks for. */
export function claimMatchesRetentionPolicy(
  set: StatefulSet,
  pod: Pod,
  claim: PersistentVolumeClaim,
): boolean {
  const key = (refs: readonly OwnerReference[]): string =>
    refs
      .map((r) => `${r.kind}/${r.uid}`)
      .sort()
      .join(',');
  return key(claim.metadata?.ownerReferences ?? []) === key(claimOwnerReferences(set, pod, claim));
}
