import type { Node, Pod, ReplicaSet, Service, StatefulSet, ReplicationController } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NO_WORKLOAD_LISTERS } from '../../framework/framework';
import type { FrameworkHandle, WorkloadListers } from '../../framework/interfaces';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { SelectorSpread } from './selectorSpread';

const ZONE = 'topology.kubernetes.io/zone';
const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';

const replicaSet = (name: string, matchLabels: Record<string, string>, namespace = 'default'): ReplicaSet =>
  ({ metadata: { name, namespace }, spec: { selector: { matchLabels } } }) as ReplicaSet;
const service = (name: string, selector: Record<string, string> | undefined): Service =>
  ({ metadata: { name, namespace: 'default' }, spec: selector ? { selector } : {} }) as Service;
const replicationController = (name: string, selector: Record<string, string>): ReplicationController =>
  ({ metadata: { name, namespace: 'default' }, spec: { selector } }) as ReplicationController;
const statefulSet = (name: string, matchLabels: Record<string, string>): StatefulSet =>
  ({ metadata: { name, namespace: 'default' }, spec: { selector: { matchLabels } } }) as StatefulSet;

interface Objects {
  services?: Service[];
  rcs?: ReplicationController[];
  replicaSets?: ReplicaSet[];
  statefulSets?: StatefulSet[];
}

function listers(o: Objects): WorkloadListers {
  const inNs = <T extends { metadata?: { namespace?: string } }>(items: T[] | undefined, ns: string) =>
    (items ?? []).filter((i) => i.metadata?.namespace === ns);
  return {
    services: (ns) => inNs(o.services, ns),
    replicationControllers: (ns) => inNs(o.rcs, ns),
    replicaSets: (ns) => inNs(o.replicaSets, ns),
    statefulSets: (ns) => inNs(o.statefulSets, ns),
  };
}

/** Runs PreScore, Score and NormalizeScore over the nodes and returns the final scores. */
/** The normalized scores, or 'skip' when PreScore answers Skip (no node is ranked above another). */
function scores(pod: Pod, nodes: Node[], existing: Pod[], objects: Objects): number[] | 'skip' {
  const infos = nodes.map((n) => new NodeInfo(n));
  for (const p of existing) infos.find((i) => i.name === p.spec?.nodeName)!.addPod(p);
  const handle = {
    nodeInfos: () => infos,
    workloadListers: listers(objects),
  } as unknown as FrameworkHandle;
  const plugin = new SelectorSpread(handle);
  const state = new CycleState();
  const pre = plugin.preScore(state, pod, infos);
  if (pre?.code === Code.Skip) return 'skip';
  expect(pre).toBeUndefined();
  const result = Float64Array.from(infos.map((i) => plugin.score(state, pod, i)));
  expect(plugin.normalizeScore(state, pod, result)).toBeUndefined();
  return [...result];
}

const web = { app: 'web' };
const webPod = (name: string, nodeName?: string, extra: Record<string, string> = {}) =>
  makePod(name, { labels: { ...web, ...extra }, ...(nodeName ? { nodeName } : {}) });
const plainNodes = () => [makeNode('node-1'), makeNode('node-2'), makeNode('node-3')];

describe('SelectorSpread', () => {
  it('scores the node without pods of the ReplicaSet highest', () => {
    const existing = [webPod('a', 'node-1'), webPod('b', 'node-2')];
    expect(scores(webPod('new'), plainNodes(), existing, { replicaSets: [replicaSet('rs', web)] })).toEqual([
      0, 0, 100,
    ]);
  });

  it('scales by the most matching pods on a node', () => {
    const existing = [webPod('a', 'node-1'), webPod('b', 'node-1'), webPod('c', 'node-2')];
    expect(scores(webPod('new'), plainNodes(), existing, { replicaSets: [replicaSet('rs', web)] })).toEqual([
      0, 50, 100,
    ]);
  });

  it('skips a pod nothing selects: every node would score the most', () => {
    const existing = [webPod('a', 'node-1'), webPod('b', 'node-1')];
    expect(scores(webPod('new'), plainNodes(), existing, {})).toBe('skip');
    // a Service without a selector and a ReplicaSet of other pods select nothing
    expect(
      scores(webPod('new'), plainNodes(), existing, {
        services: [service('headless', undefined)],
        replicaSets: [replicaSet('other', { app: 'db' })],
      }),
    ).toBe('skip');
  });

  it('counts only pods of the namespace, not being deleted, matching every selector', () => {
    const deleting = webPod('gone', 'node-1');
    deleting.metadata!.deletionTimestamp = '2020-01-01T00:00:00Z';
    const existing = [
      deleting,
      makePod('other-ns', { namespace: 'other', labels: web, nodeName: 'node-1' }),
      // matches the ReplicaSet but not the Service
      webPod('rs-only', 'node-2'),
      webPod('both', 'node-3', { tier: 'front' }),
    ];
    const objects = {
      services: [service('svc', { tier: 'front' })],
      replicaSets: [replicaSet('rs', web)],
    };
    expect(scores(webPod('new', undefined, { tier: 'front' }), plainNodes(), existing, objects)).toEqual([
      100, 100, 0,
    ]);
  });

  it('uses the selectors of Services, ReplicationControllers and StatefulSets', () => {
    const existing = [webPod('a', 'node-1'), webPod('b', 'node-2'), webPod('c', 'node-2')];
    const expected = [50, 0, 100];
    expect(scores(webPod('new'), plainNodes(), existing, { services: [service('svc', web)] })).toEqual(
      expected,
    );
    expect(
      scores(webPod('new'), plainNodes(), existing, { rcs: [replicationController('rc', web)] }),
    ).toEqual(expected);
    expect(scores(webPod('new'), plainNodes(), existing, { statefulSets: [statefulSet('ss', web)] })).toEqual(
      expected,
    );
  });

  it('ignores owners in other namespaces', () => {
    const existing = [webPod('a', 'node-1')];
    expect(
      scores(webPod('new'), plainNodes(), existing, { replicaSets: [replicaSet('rs', web, 'other')] }),
    ).toBe('skip');
  });

  it('blends zone spreading (2/3) with node spreading (1/3)', () => {
    const nodes = [
      makeNode('node-1', { labels: { [ZONE]: 'zone-a' } }),
      makeNode('node-2', { labels: { [ZONE]: 'zone-a' } }),
      makeNode('node-3', { labels: { [BETA_ZONE]: 'zone-b' } }),
    ];
    const objects = { replicaSets: [replicaSet('rs', web)] };
    // node-2 is empty but its zone is not: 1/3 of 100
    expect(scores(webPod('new'), nodes, [webPod('a', 'node-1')], objects)).toEqual([0, 33, 100]);
    // node counts 2/0/1, zone counts a=2, b=1: node-2 = 100/3 + 2/3 * 0, node-3 = 50/3 + 2/3 * 50
    expect(
      scores(
        webPod('new'),
        nodes,
        [webPod('a', 'node-1'), webPod('b', 'node-1'), webPod('c', 'node-3')],
        objects,
      ),
    ).toEqual([0, 33, 50]);
  });

  it('scores nodes without a zone by node counts only', () => {
    const nodes = [
      makeNode('node-1', { labels: { [ZONE]: 'zone-a' } }),
      makeNode('node-2', { labels: { [ZONE]: 'zone-b' } }),
      makeNode('node-3'),
    ];
    const existing = [webPod('a', 'node-1'), webPod('b', 'node-3')];
    expect(scores(webPod('new'), nodes, existing, { replicaSets: [replicaSet('rs', web)] })).toEqual([
      0, 100, 0,
    ]);
  });

  it('leaves pods with topology spread constraints to PodTopologySpread', () => {
    const pod = webPod('new');
    pod.spec!.topologySpreadConstraints = [
      {
        maxSkew: 1,
        topologyKey: ZONE,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: web },
      },
    ];
    const handle = {
      nodeInfos: () => [],
      workloadListers: NO_WORKLOAD_LISTERS,
    } as unknown as FrameworkHandle;
    expect(new SelectorSpread(handle).preScore(new CycleState(), pod, [])?.code).toBe(Code.Skip);
  });
});
