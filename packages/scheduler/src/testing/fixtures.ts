import type { Node, Pod, Taint } from '@orch/api';

export interface PodFixture {
  namespace?: string;
  uid?: string;
  requests?: Record<string, string>;
  initRequests?: Record<string, string>[];
  overhead?: Record<string, string>;
  priority?: number;
  schedulerName?: string;
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: NonNullable<Pod['spec']>['affinity'];
  tolerations?: NonNullable<Pod['spec']>['tolerations'];
  labels?: Record<string, string>;
  phase?: string;
  volumes?: NonNullable<Pod['spec']>['volumes'];
}

/** A pod with one container requesting `requests`, for tests and benchmarks. */
export function makePod(name: string, f: PodFixture = {}): Pod {
  const resources = f.requests ? { requests: f.requests } : {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: f.namespace ?? 'default',
      uid: f.uid ?? `uid-${f.namespace ?? 'default'}-${name}`,
      ...(f.labels ? { labels: f.labels } : {}),
    },
    spec: {
      containers: [{ name: 'c', image: 'nginx', resources }],
      ...(f.initRequests
        ? {
            initContainers: f.initRequests.map((r, i) => ({
              name: `init${i}`,
              image: 'busybox',
              resources: { requests: r },
            })),
          }
        : {}),
      ...(f.overhead ? { overhead: f.overhead } : {}),
      ...(f.priority !== undefined ? { priority: f.priority } : {}),
      schedulerName: f.schedulerName ?? 'default-scheduler',
      ...(f.nodeName ? { nodeName: f.nodeName } : {}),
      ...(f.nodeSelector ? { nodeSelector: f.nodeSelector } : {}),
      ...(f.affinity ? { affinity: f.affinity } : {}),
      ...(f.tolerations ? { tolerations: f.tolerations } : {}),
      ...(f.volumes ? { volumes: f.volumes } : {}),
    },
    status: { phase: f.phase ?? 'Pending' },
  } as Pod;
}

export interface NodeFixture {
  allocatable?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
}

/** A node with allocatable cpu 4, memory 8Gi and 110 pods unless told otherwise. */
export function makeNode(name: string, f: NodeFixture = {}): Node {
  const allocatable = f.allocatable ?? { cpu: '4', memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...f.labels } },
    spec: {
      ...(f.taints ? { taints: f.taints } : {}),
      ...(f.unschedulable ? { unschedulable: true } : {}),
    },
    status: { capacity: allocatable, allocatable },
  } as Node;
}
