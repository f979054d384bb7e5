import {
  CONTROLLER_REVISION_HASH_LABEL,
  DAEMONSET_TEMPLATE_GENERATION_ANNOTATION,
  formatTime,
  type DaemonSet,
  type Node,
  type Pod,
  type Taint,
} from '@orch/api';

/** A DaemonSet `agent` of template generation 1 (as the server sets it), changed by `spec`. */
export function daemonSet(spec: Partial<NonNullable<DaemonSet['spec']>> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'agent',
      namespace: 'default',
      uid: 'ds-uid',
      generation: 1,
      annotations: { [DAEMONSET_TEMPLATE_GENERATION_ANNOTATION]: '1' },
    },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      ...spec,
    },
  } as DaemonSet;
}

/** A node with labels and taints. */
export function node(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { taints } } as Node;
}

export interface PodOptions {
  hash?: string;
  ready?: boolean;
  /** Seconds since the epoch of its creation (and of its readiness). */
  created?: number;
  phase?: string;
  bound?: boolean;
  deleting?: boolean;
}

/** A daemon pod for a node, of revision `hash` (`old` unless given), running and ready unless told. */
export function daemonPod(name: string, nodeName: string, o: PodOptions = {}): Pod {
  const created = formatTime((o.created ?? 0) * 1000);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      creationTimestamp: created,
      labels: { app: 'agent', [CONTROLLER_REVISION_HASH_LABEL]: o.hash ?? 'old' },
      ...(o.deleting ? { deletionTimestamp: created } : {}),
    },
    spec: {
      containers: [{ name: 'agent', image: 'agent:1' }],
      ...(o.bound === false ? {} : { nodeName }),
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] },
            ],
          },
        },
      },
    },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [
        { type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: created },
      ],
    },
  } as Pod;
}

/** Pods by the node they are for. */
export function byNode(...pods: Pod[]): Map<string, Pod[]> {
  const map = new Map<string, Pod[]>();
  for (const pod of pods) {
    const name =
      pod.spec?.nodeName ??
      pod.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0]!
        .matchFields![0]!.values![0]!;
    map.set(name, [...(map.get(name) ?? []), pod]);
  }
  return map;
}
