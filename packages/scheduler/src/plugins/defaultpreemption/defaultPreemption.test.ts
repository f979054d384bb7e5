import type { Pod, PodDisruptionBudget } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { Framework, type FrameworkDeps } from '../../framework/framework';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code, Status } from '../../framework/status';
import { makeNode, makePod, type PodFixture } from '../../testing/fixtures';
import { MemoryCluster } from '../../testing/memoryCluster';
import { inTreeRegistry } from '../registry';
import {
  DefaultPreemption,
  ERR_NOT_ELIGIBLE_NEVER,
  ERR_NOT_ELIGIBLE_TERMINATING,
  NON_PREEMPTING_PRIORITY,
} from './defaultPreemption';
import { calculateNumCandidates, validateDefaultPreemptionArgs } from './defaultPreemptionArgs';
import { pickOneNodeForPreemption, type Candidate } from './pickOneNodeForPreemption';
import { filterPodsWithPDBViolation, selectVictimsOnNode } from './selectVictimsOnNode';

const CPU4 = { cpu: '4', memory: '8Gi', pods: '110' };

function pod(name: string, priority: number, cpu: string, f: PodFixture & { startTime?: string } = {}): Pod {
  const p = makePod(name, { priority, requests: { cpu }, ...f });
  if (f.startTime) p.status = { ...p.status, startTime: f.startTime };
  return p;
}

function running(name: string, priority: number, cpu: string, nodeName: string, f: PodFixture = {}): Pod {
  return pod(name, priority, cpu, { nodeName, phase: 'Running', ...f });
}

function pdb(
  name: string,
  app: string,
  allowed: number,
  disrupted: Record<string, string> = {},
): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: { app } } },
    status: {
      disruptionsAllowed: allowed,
      disruptedPods: disrupted,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    },
  } as PodDisruptionBudget;
}

interface Env {
  cluster: MemoryCluster;
  fwk: Framework;
  infos: NodeInfo[];
  nominated: Map<string, Pod[]>;
  metrics: { attempts: number; victims: number[] };
}

/** A framework with the default plugins over node infos holding `pods` (by spec.nodeName). */
function env(nodes: string[], pods: Pod[], extra: Partial<FrameworkDeps> = {}): Env {
  const cluster = new MemoryCluster();
  const infos = nodes.map((n) => new NodeInfo(makeNode(n, { allocatable: CPU4 })));
  for (const p of pods) {
    cluster.addPod(p);
    infos.find((i) => i.name === p.spec?.nodeName)!.addPod(p);
  }
  const nominated = new Map<string, Pod[]>();
  const metrics = { attempts: 0, victims: [] as number[] };
  const fwk = new Framework({ schedulerName: 'default-scheduler' }, inTreeRegistry(), {
    client: cluster,
    nodeInfos: () => infos,
    nominatedPodsForNode: (n) => nominated.get(n) ?? [],
    getPod: (ns, name) => cluster.pod(ns, name),
    metrics: {
      preemptionAttempted: () => void metrics.attempts++,
      preemptionVictims: (n) => void metrics.victims.push(n),
    },
    ...extra,
  });
  return { cluster, fwk, infos, nominated, metrics };
}

/** Runs PreFilter and Filter like a scheduling cycle; returns the state and each node's status. */
function filterAll(e: Env, p: Pod): { state: CycleState; statuses: Map<string, Status> } {
  const state = new CycleState();
  expect(e.fwk.runPreFilterPlugins(state, p).isSuccess()).toBe(true);
  const statuses = new Map<string, Status>();
  for (const info of e.infos) {
    const s = e.fwk.runFilterPluginsWithNominatedPods(state, p, info);
    if (!s.isSuccess()) statuses.set(info.name, s);
  }
  return { state, statuses };
}

const names = (pods: readonly Pod[] | undefined) => (pods ?? []).map((p) => p.metadata?.name);

describe('selectVictimsOnNode', () => {
  // node-1: 4 cpu, all taken: high (priority 100) and three lower-priority pods of 1 cpu.
  const existing = () => [
    running('high', 100, '1', 'node-1'),
    running('low1', 1, '1', 'node-1', { labels: { app: 'a' } }),
    running('low2', 2, '1', 'node-1', { labels: { app: 'b' } }),
    running('mid', 3, '1', 'node-1', { labels: { app: 'c' } }),
  ];
  const victimsFor = (pdbs: PodDisruptionBudget[]) => {
    const e = env(['node-1'], existing());
    const preemptor = pod('p', 50, '2');
    const { state } = filterAll(e, preemptor);
    const info = e.infos[0]!.clone();
    const r = selectVictimsOnNode(e.fwk, state.clone(), preemptor, info, pdbs);
    expect(r.status.isSuccess()).toBe(true);
    // The live node info is untouched.
    expect(e.infos[0]!.pods.size).toBe(4);
    return r.victims!;
  };

  it('removes all lower-priority pods, then reprieves the most important ones that still leave room', () => {
    const v = victimsFor([]);
    expect(names(v.pods)).toEqual(['low2', 'low1']);
    expect(v.numPDBViolations).toBe(0);
  });

  it('reprieves pods whose eviction would break a PodDisruptionBudget first', () => {
    const v = victimsFor([pdb('b', 'b', 0)]);
    expect(names(v.pods)).toEqual(['mid', 'low1']);
    expect(v.numPDBViolations).toBe(0);
  });

  it('counts the violating pods that cannot be reprieved', () => {
    const v = victimsFor([pdb('b', 'b', 0), pdb('c', 'c', 0)]);
    // mid is reprieved (most important), low2 cannot be: one violation.
    expect(names(v.pods)).toEqual(['low2', 'low1']);
    expect(v.numPDBViolations).toBe(1);
  });

  it('answers UnschedulableAndUnresolvable on a node without lower-priority pods', () => {
    const e = env(['node-1'], [running('high', 100, '4', 'node-1')]);
    const preemptor = pod('p', 50, '1');
    const { state } = filterAll(e, preemptor);
    const r = selectVictimsOnNode(e.fwk, state, preemptor, e.infos[0]!.clone(), []);
    expect(r.status.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(r.status.reasons).toEqual(['No preemption victims found for incoming pod']);
  });

  it('keeps the PreFilter state of InterPodAffinity in step with removed pods', () => {
    // The preemptor may not share the node with app=db pods; the only one has a lower priority.
    const antiAffinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
    const e = env(['node-1'], [running('db', 1, '100m', 'node-1', { labels: { app: 'db' } })]);
    const preemptor = pod('p', 50, '100m', { affinity: antiAffinity });
    const { state, statuses } = filterAll(e, preemptor);
    expect(statuses.get('node-1')?.code).toBe(Code.Unschedulable);
    const r = selectVictimsOnNode(e.fwk, state.clone(), preemptor, e.infos[0]!.clone(), []);
    expect(names(r.victims?.pods)).toEqual(['db']);
    // The original cycle state still counts the db pod.
    expect(e.fwk.runFilterPlugins(state, preemptor, e.infos[0]!).code).toBe(Code.Unschedulable);
  });
});

describe('filterPodsWithPDBViolation', () => {
  it('charges matching budgets of the namespace once per pod, skipping pods already disrupted', () => {
    const a1 = running('a1', 1, '1', 'n', { labels: { app: 'a' } });
    const a2 = running('a2', 1, '1', 'n', { labels: { app: 'a' } });
    const a3 = running('a3', 1, '1', 'n', { labels: { app: 'a' } });
    const other = running('o', 1, '1', 'n', { labels: { app: 'a' }, namespace: 'other' });
    const bare = running('bare', 1, '1', 'n');
    const empty = pdb('empty', 'x', 0);
    empty.spec = { selector: {} };
    const r = filterPodsWithPDBViolation(
      [a1, a2, a3, other, bare],
      [pdb('a', 'a', 1, { a1: '2024-01-01T00:00:00Z' }), empty],
    );
    // a1 is in disruptedPods (not charged), a2 takes the one allowed disruption, a3 breaks it.
    expect(names(r.violating)).toEqual(['a3']);
    expect(names(r.nonViolating)).toEqual(['a1', 'a2', 'o', 'bare']);
  });
});

describe('pickOneNodeForPreemption', () => {
  const v = (name: string, priority: number, start = '2024-01-01T00:00:00Z') =>
    pod(name, priority, '1', { startTime: start });
  const c = (name: string, pods: Pod[], numPDBViolations = 0): Candidate => ({
    name,
    victims: { pods, numPDBViolations },
  });

  it.each<[string, Candidate[], string]>([
    ['fewest PDB violations', [c('a', [v('x', 1)], 1), c('b', [v('y', 5), v('z', 5)], 0)], 'b'],
    ['lowest highest-priority victim', [c('a', [v('x', 10)]), c('b', [v('y', 5), v('z', 5)])], 'b'],
    ['smallest sum of priorities', [c('a', [v('x', 5), v('y', 4)]), c('b', [v('z', 5), v('w', 3)])], 'b'],
    [
      'sum counts every victim even with negative priorities',
      [c('a', [v('x', -5), v('y', -5)]), c('b', [v('z', -5)])],
      'b',
    ],
    ['fewest victims', [c('a', [v('x', 5), v('y', 0)]), c('b', [v('z', 5)])], 'b'],
    [
      'latest start of the highest-priority victims',
      [c('a', [v('x', 5, '2024-01-01T00:00:00Z')]), c('b', [v('y', 5, '2024-02-01T00:00:00Z')])],
      'b',
    ],
    ['the first on a full tie', [c('a', [v('x', 5)]), c('b', [v('y', 5)])], 'a'],
  ])('%s', (_what, candidates, want) => {
    expect(pickOneNodeForPreemption(candidates)?.name).toBe(want);
  });

  it('has nothing to pick without candidates', () => {
    expect(pickOneNodeForPreemption([])).toBeUndefined();
  });
});

describe('DefaultPreemption args', () => {
  it('defaults to 10% and 100 nodes and bounds the candidates by the node count', () => {
    const args = validateDefaultPreemptionArgs(undefined);
    expect(args).toEqual({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 });
    expect(calculateNumCandidates(args, 50)).toBe(50);
    expect(calculateNumCandidates(args, 5000)).toBe(500);
    expect(calculateNumCandidates({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 3 }, 50)).toBe(
      3,
    );
  });

  it("rejects values out of range with Kubernetes' messages", () => {
    expect(() => validateDefaultPreemptionArgs({ minCandidateNodesPercentage: 101 })).toThrow(
      'args.minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]',
    );
    expect(() => validateDefaultPreemptionArgs({ minCandidateNodesAbsolute: -1 })).toThrow(
      'args.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)',
    );
    expect(() =>
      validateDefaultPreemptionArgs({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 }),
    ).toThrow('cannot be zero at the same time as minCandidateNodesAbsolute');
  });
});

describe('DefaultPreemption PostFilter', () => {
  const full = () => [
    // Victims of the same priority: two on node-1, one on node-2 (smaller sum of priorities).
    running('n1-a', 2, '2', 'node-1'),
    running('n1-b', 2, '2', 'node-1'),
    running('n2-a', 2, '3', 'node-2'),
    running('n2-b', 100, '1', 'node-2'),
  ];

  async function preempt(e: Env, p: Pod, random = () => 0) {
    const plugin = new DefaultPreemption(undefined, e.fwk, random);
    const { state, statuses } = filterAll(e, p);
    return plugin.postFilter(state, p, statuses);
  }

  it('evicts the victims of the best node, with Preempted events, and nominates it', async () => {
    const e = env(['node-1', 'node-2'], full());
    const p = e.cluster.addPod(pod('p', 50, '3'));
    const r = await preempt(e, p);
    expect(r.status.isSuccess()).toBe(true);
    expect(r.nominatedNodeName).toBe('node-2');
    expect(e.cluster.deletions).toEqual(['default/n2-a']);
    expect(e.cluster.events).toEqual([
      {
        pod: 'default/n2-a',
        type: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${p.metadata!.uid} on node node-2`,
      },
    ]);
    // Without the PodDisruptionConditions gate there is no DisruptionTarget condition.
    expect(e.cluster.statusPatches).toEqual([]);
    expect(e.metrics).toEqual({ attempts: 1, victims: [1] });
  });

  it('adds the DisruptionTarget condition first when PodDisruptionConditions is on', async () => {
    const e = env(['node-1', 'node-2'], full(), { featureEnabled: (n) => n === 'PodDisruptionConditions' });
    const p = e.cluster.addPod(pod('p', 50, '3'));
    await preempt(e, p);
    expect(e.cluster.statusPatches).toEqual([
      {
        pod: 'default/n2-a',
        status: {
          conditions: [
            expect.objectContaining({
              type: 'DisruptionTarget',
              status: 'True',
              reason: 'PreemptionByScheduler',
              message: 'default-scheduler: preempting to accommodate a higher priority pod',
            }),
          ],
        },
      },
    ]);
  });

  it('clears the nomination of lower-priority pods nominated to the chosen node', async () => {
    const e = env(['node-2'], full().slice(2));
    const waiting = e.cluster.addPod(pod('waiting', 10, '1'));
    e.cluster.addPod({ ...waiting, status: { ...waiting.status, nominatedNodeName: 'node-2' } });
    e.nominated.set('node-2', [e.cluster.pod('default', 'waiting')!]);
    const p = e.cluster.addPod(pod('p', 50, '3'));
    await preempt(e, p);
    expect(e.cluster.statusPatches).toContainEqual({
      pod: 'default/waiting',
      status: { nominatedNodeName: null },
    });
  });

  it('does not preempt for a pod with preemptionPolicy Never (NonPreemptingPriority on)', async () => {
    const e = env(['node-1', 'node-2'], full(), { featureEnabled: (n) => n === NON_PREEMPTING_PRIORITY });
    const never = pod('p', 50, '3');
    never.spec!.preemptionPolicy = 'Never';
    const r = await preempt(e, e.cluster.addPod(never));
    expect(r.status.code).toBe(Code.Unschedulable);
    expect(r.status.reasons).toEqual([`preemption: ${ERR_NOT_ELIGIBLE_NEVER}`]);
    expect(r.nominatedNodeName).toBeUndefined();
    expect(e.cluster.deletions).toEqual([]);
    expect(e.metrics.attempts).toBe(1);
  });

  it('preempts for a pod with preemptionPolicy Never while NonPreemptingPriority is off', async () => {
    const e = env(['node-1', 'node-2'], full(), { featureEnabled: () => false });
    const never = pod('p', 50, '3');
    never.spec!.preemptionPolicy = 'Never';
    const r = await preempt(e, e.cluster.addPod(never));
    expect(r.status.isSuccess()).toBe(true);
    expect(r.nominatedNodeName).toBeDefined();
    expect(e.cluster.deletions.length).toBeGreaterThan(0);
  });

  it('waits while a lower-priority pod on its nominated node is terminating', async () => {
    const pods = full();
    pods[2]!.metadata!.deletionTimestamp = '2024-01-01T00:00:00Z';
    const e = env(['node-1', 'node-2'], pods);
    const p = pod('p', 50, '3');
    p.status = { ...p.status, nominatedNodeName: 'node-2' };
    const r = await preempt(e, e.cluster.addPod(p));
    expect(r.status.reasons).toEqual([`preemption: ${ERR_NOT_ELIGIBLE_TERMINATING}`]);
    expect(e.cluster.deletions).toEqual([]);

    // With PodDisruptionConditions, only a pod the scheduler preempted (DisruptionTarget) counts.
    const gated = env(['node-1', 'node-2'], pods, { featureEnabled: () => true });
    const again = await preempt(gated, gated.cluster.addPod(p));
    expect(again.status.isSuccess()).toBe(true);
  });

  it('preempts again when the nominated node became unresolvable', async () => {
    const e = env(['node-1', 'node-2'], full());
    const p = pod('p', 50, '3');
    p.status = { ...p.status, nominatedNodeName: 'node-2' };
    const plugin = new DefaultPreemption(undefined, e.fwk, () => 0);
    expect(plugin.podEligibleToPreemptOthers(p, Status.unresolvable('gone'))).toBeUndefined();
  });

  it('reports why no node can help and clears the nomination', async () => {
    const e = env(['node-1'], [running('high', 100, '4', 'node-1')]);
    const r = await preempt(e, e.cluster.addPod(pod('p', 50, '1')));
    expect(r.status.code).toBe(Code.Unschedulable);
    expect(r.status.reasons).toEqual([
      'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ]);
    expect(r.nominatedNodeName).toBe('');
  });

  it('leaves nodes the filters found unresolvable alone', async () => {
    const e = env(['node-1', 'node-2'], full());
    const p = e.cluster.addPod(pod('p', 50, '3', { nodeSelector: { 'kubernetes.io/hostname': 'node-1' } }));
    const r = await preempt(e, p);
    expect(r.nominatedNodeName).toBe('node-1');
    expect(e.cluster.deletions.sort()).toEqual(['default/n1-a', 'default/n1-b']);
  });
});

describe('Framework.runFilterPluginsWithNominatedPods', () => {
  it('keeps the room of nominated pods of equal or higher priority', () => {
    const e = env(['node-1'], [running('busy', 0, '2', 'node-1')]);
    const p = pod('p', 10, '2');
    expect(filterAll(e, p).statuses.size).toBe(0);
    e.nominated.set('node-1', [pod('lower', 5, '2')]);
    expect(filterAll(e, p).statuses.size).toBe(0);
    e.nominated.set('node-1', [pod('higher', 10, '2')]);
    expect(filterAll(e, p).statuses.get('node-1')?.reasons).toEqual(['Insufficient cpu']);
    // The pod's own nomination does not count against it.
    e.nominated.set('node-1', [p]);
    expect(filterAll(e, p).statuses.size).toBe(0);
  });

  it("counts nominated pods in InterPodAffinity's state through AddPod", () => {
    const e = env(['node-1'], []);
    const p = pod('p', 10, '100m', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    });
    e.nominated.set('node-1', [pod('db', 10, '100m', { labels: { app: 'db' } })]);
    expect(filterAll(e, p).statuses.get('node-1')?.reasons).toEqual([
      "node(s) didn't match pod anti-affinity rules",
    ]);
  });
});
