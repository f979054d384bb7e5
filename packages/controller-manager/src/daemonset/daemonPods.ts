import {
  CONTROLLER_REVISION_HASH_LABEL,
  DAEMONSET_TEMPLATE_GENERATION_ANNOTATION,
  DAEMONSET_TEMPLATE_GENERATION_LABEL,
  findUntoleratedTaint,
  parseTime,
  RequiredNodeAffinity,
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_UNSCHEDULABLE,
  type Affinity,
  type DaemonSet,
  type Node,
  type Pod,
  type PodSpec,
  type PodTemplateSpec,
  type Toleration,
} from '@orch/api';

/**
 * The tolerations every daemon pod gets (Kubernetes' AddOrUpdateDaemonPodTolerations): it stays on
 * a node that turns not ready or unreachable, and goes to nodes under pressure and cordoned ones;
 * with host networking, also to nodes whose network is not set up yet.
 */
export function daemonPodTolerations(spec: PodSpec | undefined): Toleration[] {
  const added: Toleration[] = [
    { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_NODE_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_NODE_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_NODE_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_NODE_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec?.hostNetwork)
    added.push({ key: TAINT_NODE_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' });
  let tolerations = [...(spec?.tolerations ?? [])];
  for (const t of added) tolerations = addOrUpdateToleration(tolerations, t);
  return tolerations;
}

/** Same key, operator, value and effect (Kubernetes' Toleration.MatchToleration). */
function matchToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/** Kubernetes' AddOrUpdateTolerationInPodSpec: a matching toleration is replaced, else it is added. */
function addOrUpdateToleration(tolerations: Toleration[], toleration: Toleration): Toleration[] {
  let replaced = false;
  const out = tolerations.map((t) => {
    if (!matchToleration(toleration, t)) return t;
    replaced = true;
    return toleration;
  });
  if (!replaced) out.push(toleration);
  return out;
}

/**
 * The pod's affinity with its required node terms replaced by one naming the node (Kubernetes'
 * ReplaceDaemonSetPodNodeNameNodeAffinity): the scheduler then binds the pod to that node. The other
 * terms were checked against the node before the pod was made for it.
 */
export function nodeNameAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
  };
  const copy = structuredClone(affinity ?? {});
  copy.nodeAffinity = { ...copy.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required };
  return copy;
}

/**
 * The node a daemon pod is for (Kubernetes' GetTargetNodeName): its spec.nodeName once bound, else
 * the single node its required affinity names by metadata.name.
 */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length !== 1) return undefined;
  const fields = terms[0]!.matchFields ?? [];
  if (fields.length !== 1) return undefined;
  const f = fields[0]!;
  return f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1 ? f.values[0] : undefined;
}

/** The template generation the server keeps in the DaemonSet's annotation, when it is a number. */
export function templateGeneration(ds: DaemonSet): number | undefined {
  const value = ds.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION];
  if (value === undefined || !/^-?\d+$/.test(value)) return undefined;
  return Number(value);
}

/**
 * The template of the DaemonSet's pods (Kubernetes' CreatePodTemplate): the daemon tolerations, and
 * the template generation and revision hash as labels.
 */
export function daemonPodTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
  const template = structuredClone(ds.spec?.template ?? {}) as PodTemplateSpec;
  const spec = (template.spec ?? { containers: [] }) as PodSpec;
  spec.tolerations = daemonPodTolerations(spec);
  template.spec = spec;
  const labels = { ...template.metadata?.labels };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[DAEMONSET_TEMPLATE_GENERATION_LABEL] = String(generation);
  if (hash) labels[CONTROLLER_REVISION_HASH_LABEL] = hash;
  template.metadata = { ...template.metadata, labels };
  return template;
}

/** Whether a daemon pod was made from the DaemonSet's current revision or template generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  const hashMatches = hash !== '' && labels[CONTROLLER_REVISION_HASH_LABEL] === hash;
  const generationMatches =
    generation !== undefined && labels[DAEMONSET_TEMPLATE_GENERATION_LABEL] === String(generation);
  return hashMatches || generationMatches;
}

/** Whether the DaemonSet's pod should be placed on the node, and may go on running there. */
export interface NodePlacement {
  shouldRun: boolean;
  shouldContinueRunning: boolean;
}

/**
 * Kubernetes' NodeShouldRunDaemonPod: a pod should run on a node its template's nodeName, node
 * selector and required node affinity admit, whose NoSchedule and NoExecute taints it tolerates
 * (with the daemon tolerations); a pod already there goes on running unless a NoExecute taint is
 * not tolerated.
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): NodePlacement {
  const nodeName = node.metadata?.name ?? '';
  const spec = ds.spec?.template?.spec;
  if (spec?.nodeName && spec.nodeName !== nodeName) return { shouldRun: false, shouldContinueRunning: false };
  const pod = { spec: { ...spec, nodeName } } as Pod;
  if (!new RequiredNodeAffinity(pod).matches(node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonPodTolerations(spec);
  const taints = node.spec?.taints;
  const untolerated = findUntoleratedTaint(
    taints,
    tolerations,
    (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule',
  );
  if (!untolerated) return { shouldRun: true, shouldContinueRunning: true };
  const noExecute = findUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute');
  return { shouldRun: false, shouldContinueRunning: noExecute === undefined };
}

/**
 * Kubernetes' podByCreationTimestampAndPhase: bound pods first, then the oldest, then by name.
 */
export function compareDaemonPods(a: Pod, b: Pod): number {
  const aBound = Boolean(a.spec?.nodeName);
  const bBound = Boolean(b.spec?.nodeName);
  if (aBound !== bBound) return aBound ? -1 : 1;
  const at = a.metadata?.creationTimestamp ? parseTime(a.metadata.creationTimestamp) : 0;
  const bt = b.metadata?.creationTimestamp ? parseTime(b.metadata.creationTimestamp) : 0;
  if (at !== bt) return at - bt;
  const an = a.metadata?.name ?? '';
  const bn = b.metadata?.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/**
 * The one updated and the one old pod on a node that is not being deleted (Kubernetes'
 * findUpdatedPodsOnNode); undefined when the node has two of either, which the manage step clears up.
 */
export function findUpdatedPodsOnNode(
  pods: readonly Pod[],
  hash: string,
  generation: number | undefined,
): { newPod?: Pod; oldPod?: Pod } | undefined {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { newPod, oldPod };
}
