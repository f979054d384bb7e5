import type { Pod, TopologySpreadConstraint } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { defaultPlugins } from '../../framework/profile';
import type { FrameworkHandle } from '../../framework/interfaces';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code, type Status } from '../../framework/status';
import { makeNode, makePod, type PodFixture } from '../../testing/fixtures';
import {
  ERR_CONSTRAINTS_NOT_MATCH,
  ERR_NODE_LABEL_NOT_MATCH,
  POD_TOPOLOGY_SPREAD,
  PodTopologySpread,
} from './podTopologySpread';

const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';

/** Nodes a1, a2 in zone-a, b1 in zone-b, c1 in zone-c, x1 without a zone label. */
function cluster(existing: Pod[], taints: Record<string, { key: string; effect: string }[]> = {}) {
  const zones: Record<string, string | undefined> = {
    a1: 'zone-a',
    a2: 'zone-a',
    b1: 'zone-b',
    c1: 'zone-c',
    x1: undefined,
  };
  const infos = Object.entries(zones).map(([name, zone]) => {
    const node = makeNode(name, { labels: zone ? { [ZONE]: zone } : {} });
    if (taints[name]) node.spec = { ...node.spec, taints: taints[name] as never };
    return new NodeInfo(node);
  });
  for (const p of existing) infos.find((i) => i.name === p.spec?.nodeName)!.addPod(p);
  const handle = { nodeInfos: () => infos } as unknown as FrameworkHandle;
  return { infos, plugin: new PodTopologySpread(handle) };
}

function spread(
  topologyKey: string,
  maxSkew: number,
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway',
  extra: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint {
  return {
    topologyKey,
    maxSkew,
    whenUnsatisfiable,
    labelSelector: { matchLabels: { app: 'web' } },
    ...extra,
  };
}

function pod(name: string, constraints: TopologySpreadConstraint[], f: PodFixture = {}): Pod {
  const p = makePod(name, { labels: { app: 'web' }, ...f });
  p.spec = { ...p.spec!, topologySpreadConstraints: constraints };
  return p;
}

/** Running web pods: how many on each node. */
function running(perNode: Record<string, number>, f: PodFixture = {}): Pod[] {
  return Object.entries(perNode).flatMap(([node, n]) =>
    Array.from({ length: n }, (_, i) =>
      makePod(`web-${node}-${i}`, { labels: { app: 'web' }, nodeName: node, ...f }),
    ),
  );
}

/** The filter verdict per node: 'ok' or the status code and reasons. */
function verdicts(plugin: PodTopologySpread, infos: NodeInfo[], p: Pod): Record<string, string> {
  const state = new CycleState();
  const pre = plugin.preFilter(state, p);
  if (pre?.code === Code.Skip) return { skip: 'skip' };
  const out: Record<string, string> = {};
  const show = (s: Status | undefined) => (s === undefined ? 'ok' : `${s.codeName()}: ${s.message()}`);
  for (const info of infos) out[info.name] = show(plugin.filter(state, p, info));
  return out;
}

describe('PodTopologySpread filter (DoNotSchedule)', () => {
  it('is skipped for a pod without hard constraints', () => {
    const { plugin, infos } = cluster([]);
    expect(verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'ScheduleAnyway')]))).toEqual({ skip: 'skip' });
  });

  it('keeps each zone within maxSkew of the least loaded one, and rejects nodes without the key', () => {
    // zone-a 2 pods, zone-b 1, zone-c 0: min 0, so only zone-c (and zone-b with maxSkew 2) fits
    const { plugin, infos } = cluster(running({ a1: 1, a2: 1, b1: 1 }));
    const unschedulable = `Unschedulable: ${ERR_CONSTRAINTS_NOT_MATCH}`;
    const missing = `UnschedulableAndUnresolvable: ${ERR_NODE_LABEL_NOT_MATCH}`;
    expect(verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule')]))).toEqual({
      a1: unschedulable,
      a2: unschedulable,
      b1: unschedulable,
      c1: 'ok',
      x1: missing,
    });
    expect(verdicts(plugin, infos, pod('p', [spread(ZONE, 2, 'DoNotSchedule')]))).toEqual({
      a1: unschedulable,
      a2: unschedulable,
      b1: 'ok',
      c1: 'ok',
      x1: missing,
    });
  });

  it('does not count the pod itself when its labels do not match, nor pods of other namespaces or terminating ones', () => {
    const others = [
      ...running({ b1: 3 }, { namespace: 'other' }),
      {
        ...makePod('going', { labels: { app: 'web' }, nodeName: 'c1' }),
        metadata: {
          name: 'going',
          namespace: 'default',
          labels: { app: 'web' },
          deletionTimestamp: '2026-01-01T00:00:00Z',
        },
      } as Pod,
    ];
    const { plugin, infos } = cluster([...running({ a1: 1 }), ...others]);
    // one pod in zone-a; the new pod does not match the selector: skew 1 - 0 = 1 <= 1 everywhere
    const stranger = pod('p', [spread(ZONE, 1, 'DoNotSchedule')], { labels: { app: 'db' } });
    const v = verdicts(plugin, infos, stranger);
    expect([v.a1, v.b1, v.c1]).toEqual(['ok', 'ok', 'ok']);
    // a matching pod would make zone-a 2 against 0
    expect(verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule')])).a1).toContain(
      'Unschedulable',
    );
  });

  it('counts only nodes the pod may go to (nodeAffinityPolicy Honor), unless Ignore', () => {
    // zone-c is excluded by the pod's node selector: its 0 no longer sets the minimum
    const { plugin, infos } = cluster(running({ a1: 1, b1: 1 }));
    const selector = { nodeSelector: { [ZONE]: 'zone-a' } };
    const honour = verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule')], selector));
    expect(honour.a1).toBe('ok');
    const ignore = verdicts(
      plugin,
      infos,
      pod('p', [spread(ZONE, 1, 'DoNotSchedule', { nodeAffinityPolicy: 'Ignore' })], selector),
    );
    expect(ignore.a1).toContain('Unschedulable');
  });

  it('leaves out tainted nodes with nodeTaintsPolicy Honor', () => {
    const { plugin, infos } = cluster(running({ a1: 1, b1: 1 }), {
      c1: [{ key: 'dedicated', effect: 'NoSchedule' }],
    });
    const ignore = verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule')]));
    expect(ignore.a1).toContain('Unschedulable');
    const honour = verdicts(
      plugin,
      infos,
      pod('p', [spread(ZONE, 1, 'DoNotSchedule', { nodeTaintsPolicy: 'Honor' })]),
    );
    expect(honour.a1).toBe('ok');
  });

  it('counts the global minimum as 0 with fewer eligible domains than minDomains', () => {
    const { plugin, infos } = cluster(running({ a1: 1, b1: 1, c1: 1 }));
    expect(verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule')])).a1).toBe('ok');
    expect(
      verdicts(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule', { minDomains: 4 })])).a1,
    ).toContain('Unschedulable');
  });

  it('follows pods added and removed by preemption dry runs on a copy of the state', () => {
    const { plugin, infos } = cluster(running({ a1: 1, b1: 1 }));
    const p = pod('p', [spread(ZONE, 1, 'DoNotSchedule')]);
    const state = new CycleState();
    plugin.preFilter(state, p);
    const c1 = infos.find((i) => i.name === 'c1')!;
    const a1 = infos.find((i) => i.name === 'a1')!;
    expect(plugin.filter(state, p, a1)?.code).toBe(Code.Unschedulable);
    const copy = state.clone();
    plugin
      .preFilterExtensions()
      .addPod(copy, p, makePod('x', { labels: { app: 'web' }, nodeName: 'c1' }), c1);
    expect(plugin.filter(copy, p, a1)).toBeUndefined();
    // the original state is untouched
    expect(plugin.filter(state, p, a1)?.code).toBe(Code.Unschedulable);
    plugin.preFilterExtensions().removePod(copy, p, running({ a1: 1 })[0]!, a1);
    expect(plugin.filter(copy, p, a1)).toBeUndefined();
  });
});

describe('PodTopologySpread score (ScheduleAnyway)', () => {
  function scores(plugin: PodTopologySpread, infos: NodeInfo[], p: Pod): Record<string, number> | 'skip' {
    const state = new CycleState();
    const pre = plugin.preScore(state, p, infos);
    if (pre?.code === Code.Skip) return 'skip';
    const raw = Float64Array.from(infos.map((i) => plugin.score(state, p, i)));
    plugin.normalizeScore(state, p, raw);
    return Object.fromEntries(infos.map((i, n) => [i.name, raw[n]!]));
  }

  it('is skipped for a pod without soft constraints', () => {
    const { plugin, infos } = cluster([]);
    expect(scores(plugin, infos, pod('p', [spread(ZONE, 1, 'DoNotSchedule')]))).toBe('skip');
  });

  it('scores less loaded zones higher and nodes without the key 0', () => {
    const { plugin, infos } = cluster(running({ a1: 2, a2: 1, b1: 1 }));
    const s = scores(plugin, infos, pod('p', [spread(ZONE, 1, 'ScheduleAnyway')])) as Record<string, number>;
    expect(s.x1).toBe(0);
    expect(s.c1).toBe(100);
    expect(s.a1).toBe(s.a2);
    expect(s.c1).toBeGreaterThan(s.b1!);
    expect(s.b1).toBeGreaterThan(s.a1!);
  });

  it('gives every node the top score when no pod matches', () => {
    const { plugin, infos } = cluster([]);
    const s = scores(plugin, infos, pod('p', [spread(HOSTNAME, 1, 'ScheduleAnyway')])) as Record<
      string,
      number
    >;
    expect(Object.values(s)).toEqual([100, 100, 100, 100, 100]);
  });
});

describe('the default plugins', () => {
  it('include PodTopologySpread only with the EvenPodsSpread gate on', () => {
    const names = (on: boolean) =>
      Object.entries(defaultPlugins(() => on))
        .filter(([, refs]) => refs.some((r) => r.name === POD_TOPOLOGY_SPREAD))
        .map(([point]) => point);
    expect(names(false)).toEqual([]);
    expect(names(true)).toEqual(['preFilter', 'filter', 'preScore', 'score']);
  });
});
