import type { Node, Pod } from '@orch/api';
import {
  compareByEvictionAndCreation,
  isPodTerminated,
  missingNodeNames,
  orphanedPods,
  OUT_OF_SERVICE_TAINT,
  outOfServiceTerminatingPods,
  terminatedPodsToCollect,
  unscheduledTerminatingPods,
} from './podsToCollect';

function pod(
  name: string,
  opts: { phase?: string; reason?: string; created?: string; node?: string; deleting?: boolean } = {},
): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      creationTimestamp: opts.created ?? '2024-01-01T00:00:00Z',
      ...(opts.deleting ? { deletionTimestamp: '2024-01-02T00:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'busybox' }], ...(opts.node ? { nodeName: opts.node } : {}) },
    status: { ...(opts.phase ? { phase: opts.phase } : {}), ...(opts.reason ? { reason: opts.reason } : {}) },
  } as Pod;
}

function node(name: string, opts: { ready?: boolean; taints?: string[] } = {}): Node {
  return {
    metadata: { name },
    spec: { taints: (opts.taints ?? []).map((key) => ({ key, effect: 'NoExecute' })) },
    status: { conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
  } as Node;
}

const names = (pods: readonly Pod[]): string[] => pods.map((p) => p.metadata?.name ?? '');

describe('terminated pods', () => {
  test('Succeeded, Failed and a phase not set count as terminated; Pending, Running and Unknown do not', () => {
    expect(
      ['Succeeded', 'Failed', undefined, 'Pending', 'Running', 'Unknown'].map((phase) =>
        isPodTerminated(pod('p', { phase })),
      ),
    ).toEqual([true, true, true, false, false, false]);
  });

  test('only the terminated pods beyond the threshold go, oldest first', () => {
    const pods = [
      pod('running-old', { phase: 'Running', created: '2020-01-01T00:00:00Z' }),
      pod('d', { phase: 'Succeeded', created: '2024-01-04T00:00:00Z' }),
      pod('a', { phase: 'Failed', created: '2024-01-01T00:00:00Z' }),
      pod('c', { phase: 'Succeeded', created: '2024-01-03T00:00:00Z' }),
      pod('b', { phase: 'Succeeded', created: '2024-01-02T00:00:00Z' }),
      pod('pending', { phase: 'Pending', created: '2020-01-01T00:00:00Z' }),
    ];
    expect(names(terminatedPodsToCollect(pods, 2))).toEqual(['a', 'b']);
    expect(names(terminatedPodsToCollect(pods, 3))).toEqual(['a']);
    expect(terminatedPodsToCollect(pods, 4)).toEqual([]);
    expect(terminatedPodsToCollect(pods, 12_500)).toEqual([]);
  });

  test('a threshold of 0 or below turns the terminated part off', () => {
    const pods = [pod('a', { phase: 'Failed' }), pod('b', { phase: 'Succeeded' })];
    expect(terminatedPodsToCollect(pods, 0)).toEqual([]);
    expect(terminatedPodsToCollect(pods, -1)).toEqual([]);
    expect(names(terminatedPodsToCollect(pods, 1))).toEqual(['a']);
  });

  test('evicted pods go before older ones; equal creation times are ordered by name', () => {
    const pods = [
      pod('old', { phase: 'Failed', created: '2024-01-01T00:00:00Z' }),
      pod('evicted', { phase: 'Failed', reason: 'Evicted', created: '2024-06-01T00:00:00Z' }),
      pod('y', { phase: 'Succeeded', created: '2024-02-01T00:00:00Z' }),
      pod('x', { phase: 'Succeeded', created: '2024-02-01T00:00:00Z' }),
    ];
    expect(names(terminatedPodsToCollect(pods, 1))).toEqual(['evicted', 'old', 'x']);
    expect(names([...pods].sort(compareByEvictionAndCreation))).toEqual(['evicted', 'old', 'x', 'y']);
  });

  test('the given list is left unchanged', () => {
    const pods = Object.freeze([
      pod('b', { phase: 'Failed', created: '2024-01-02T00:00:00Z' }),
      pod('a', { phase: 'Failed', created: '2024-01-01T00:00:00Z' }),
    ]);
    expect(names(terminatedPodsToCollect(pods, 1))).toEqual(['a']);
    expect(names(pods)).toEqual(['b', 'a']);
  });
});

describe('orphaned and terminating pods', () => {
  test('missing nodes are those pods are bound to that do not exist, each once', () => {
    const pods = [
      pod('a', { node: 'gone' }),
      pod('b', { node: 'gone' }),
      pod('c', { node: 'here' }),
      pod('d'),
      pod('e', { node: 'other-gone' }),
    ];
    expect(missingNodeNames(pods, new Set(['here']))).toEqual(['gone', 'other-gone']);
    expect(names(orphanedPods(pods, new Set(['gone'])))).toEqual(['a', 'b']);
  });

  test('unscheduled terminating pods: being deleted and bound to no node', () => {
    const pods = [
      pod('unscheduled-deleting', { deleting: true }),
      pod('unscheduled'),
      pod('scheduled-deleting', { node: 'n', deleting: true }),
    ];
    expect(names(unscheduledTerminatingPods(pods))).toEqual(['unscheduled-deleting']);
  });

  test('terminating pods on a not-ready node with the out-of-service taint', () => {
    const nodes = new Map(
      [
        node('oos', { ready: false, taints: [OUT_OF_SERVICE_TAINT] }),
        node('oos-ready', { ready: true, taints: [OUT_OF_SERVICE_TAINT] }),
        node('not-ready', { ready: false }),
      ].map((n) => [n.metadata?.name ?? '', n]),
    );
    const pods = [
      pod('young', { node: 'oos', deleting: true, created: '2024-02-01T00:00:00Z' }),
      pod('old', { node: 'oos', deleting: true, created: '2024-01-01T00:00:00Z' }),
      pod('not-deleting', { node: 'oos' }),
      pod('on-ready-node', { node: 'oos-ready', deleting: true }),
      pod('untainted', { node: 'not-ready', deleting: true }),
      pod('unknown-node', { node: 'missing', deleting: true }),
      pod('unscheduled', { deleting: true }),
    ];
    expect(names(outOfServiceTerminatingPods(pods, (n) => nodes.get(n)))).toEqual(['old', 'young']);
  });
});
