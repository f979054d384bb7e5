import type { Pod, PodAffinityTerm } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import type { FrameworkHandle } from '../../framework/interfaces';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code, type Status } from '../../framework/status';
import { makeNode, makePod, type PodFixture } from '../../testing/fixtures';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  InterPodAffinity,
  validateInterPodAffinityArgs,
} from './interPodAffinity';

const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

/** Nodes n1, n2 in zone-a, n3 in zone-b, n4 without a zone label. */
function cluster(existing: Pod[], namespaces: Record<string, Record<string, string>> = {}) {
  const zones: Record<string, string | undefined> = {
    n1: 'zone-a',
    n2: 'zone-a',
    n3: 'zone-b',
    n4: undefined,
  };
  const infos = Object.entries(zones).map(
    ([name, zone]) => new NodeInfo(makeNode(name, { labels: zone ? { [ZONE]: zone } : {} })),
  );
  for (const p of existing) infos.find((i) => i.name === p.spec?.nodeName)!.addPod(p);
  const handle = {
    nodeInfos: () => infos,
    nodeInfosWithAffinity: () => infos.filter((i) => i.podsWithAffinity.size > 0),
    nodeInfosWithRequiredAntiAffinity: () => infos.filter((i) => i.podsWithRequiredAntiAffinity.size > 0),
    namespaceLabels: (ns: string) => namespaces[ns],
  } as unknown as FrameworkHandle;
  return { infos, handle };
}

function term(labels: Record<string, string>, topologyKey: string, extra: Partial<PodAffinityTerm> = {}) {
  return { labelSelector: { matchLabels: labels }, topologyKey, ...extra } as PodAffinityTerm;
}

function withAffinity(
  name: string,
  f: PodFixture,
  a: {
    affinity?: PodAffinityTerm[];
    anti?: PodAffinityTerm[];
    preferred?: [number, PodAffinityTerm][];
    preferredAnti?: [number, PodAffinityTerm][];
  },
): Pod {
  const weighted = (ts?: [number, PodAffinityTerm][]) =>
    ts?.map(([weight, podAffinityTerm]) => ({ weight, podAffinityTerm }));
  return makePod(name, {
    ...f,
    affinity: {
      ...(a.affinity || a.preferred
        ? {
            podAffinity: {
              ...(a.affinity ? { requiredDuringSchedulingIgnoredDuringExecution: a.affinity } : {}),
              ...(a.preferred
                ? { preferredDuringSchedulingIgnoredDuringExecution: weighted(a.preferred) }
                : {}),
            },
          }
        : {}),
      ...(a.anti || a.preferredAnti
        ? {
            podAntiAffinity: {
              ...(a.anti ? { requiredDuringSchedulingIgnoredDuringExecution: a.anti } : {}),
              ...(a.preferredAnti
                ? { preferredDuringSchedulingIgnoredDuringExecution: weighted(a.preferredAnti) }
                : {}),
            },
          }
        : {}),
    },
  });
}

/** The filter status per node name ('ok' when it passes). */
function filterAll(pod: Pod, existing: Pod[], namespaces?: Record<string, Record<string, string>>) {
  const { infos, handle } = cluster(existing, namespaces);
  const plugin = new InterPodAffinity(undefined, handle);
  const state = new CycleState();
  const pre = plugin.preFilter(state, pod);
  expect(pre === undefined || pre.code === Code.Skip).toBe(true);
  const result: Record<string, string> = {};
  for (const info of infos) {
    const s: Status | undefined = plugin.filter(state, pod, info);
    result[info.name] = s === undefined ? 'ok' : `${s.codeName()}: ${s.reasons.join(', ')}`;
  }
  return result;
}

const ANTI = `Unschedulable: ${ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH}`;
const EXISTING = `Unschedulable: ${ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH}`;
const AFFINITY = `UnschedulableAndUnresolvable: ${ERR_REASON_AFFINITY_RULES_NOT_MATCH}`;

describe('InterPodAffinity filter', () => {
  const web = (name: string, nodeName?: string) =>
    makePod(name, { labels: { app: 'web' }, ...(nodeName ? { nodeName } : {}) });
  const db = (name: string, nodeName: string, namespace = 'default') =>
    makePod(name, { labels: { app: 'db' }, nodeName, namespace });

  it('passes every node for a pod without pod affinity, and has its Filter skipped', () => {
    expect(filterAll(web('p'), [web('w1', 'n1')])).toEqual({ n1: 'ok', n2: 'ok', n3: 'ok', n4: 'ok' });
    const { handle } = cluster([web('w1', 'n1')]);
    expect(new InterPodAffinity(undefined, handle).preFilter(new CycleState(), web('p'))?.code).toBe(
      Code.Skip,
    );
    // An existing pod's required anti-affinity selecting the pod needs the Filter.
    const guard = withAffinity('g', { nodeName: 'n1' }, { anti: [term({ app: 'web' }, HOSTNAME)] });
    const guarded = cluster([guard]).handle;
    expect(new InterPodAffinity(undefined, guarded).preFilter(new CycleState(), web('p'))).toBeUndefined();
  });

  it('keeps required anti-affinity on the hostname off nodes running a matching pod', () => {
    const pod = withAffinity('p', { labels: { app: 'web' } }, { anti: [term({ app: 'web' }, HOSTNAME)] });
    expect(filterAll(pod, [web('w1', 'n1'), db('d1', 'n2')])).toEqual({
      n1: ANTI,
      n2: 'ok',
      n3: 'ok',
      n4: 'ok',
    });
  });

  it('applies required anti-affinity on the zone to the whole zone; nodes without the key pass', () => {
    const pod = withAffinity('p', { labels: { app: 'web' } }, { anti: [term({ app: 'web' }, ZONE)] });
    expect(filterAll(pod, [web('w1', 'n1')])).toEqual({ n1: ANTI, n2: ANTI, n3: 'ok', n4: 'ok' });
  });

  it('needs a matching pod in the zone for required affinity; a node without the key fails', () => {
    const pod = withAffinity('p', {}, { affinity: [term({ app: 'db' }, ZONE)] });
    expect(filterAll(pod, [db('d1', 'n1')])).toEqual({ n1: 'ok', n2: 'ok', n3: AFFINITY, n4: AFFINITY });
  });

  it('requires all affinity terms to match the same pod', () => {
    const pod = withAffinity(
      'p',
      {},
      { affinity: [term({ app: 'db' }, ZONE), term({ tier: 'cache' }, HOSTNAME)] },
    );
    const cache = makePod('c', { labels: { tier: 'cache' }, nodeName: 'n1' });
    expect(filterAll(pod, [db('d1', 'n1'), cache])).toEqual({
      n1: AFFINITY,
      n2: AFFINITY,
      n3: AFFINITY,
      n4: AFFINITY,
    });
    const both = makePod('b', { labels: { app: 'db', tier: 'cache' }, nodeName: 'n2' });
    expect(filterAll(pod, [both])).toEqual({ n1: AFFINITY, n2: 'ok', n3: AFFINITY, n4: AFFINITY });
  });

  it("looks in the pod's own namespace unless the term names namespaces", () => {
    const own = withAffinity('p', {}, { affinity: [term({ app: 'db' }, HOSTNAME)] });
    expect(filterAll(own, [db('d1', 'n1', 'other')])).toEqual({
      n1: AFFINITY,
      n2: AFFINITY,
      n3: AFFINITY,
      n4: AFFINITY,
    });
    const named = withAffinity(
      'p',
      {},
      { affinity: [term({ app: 'db' }, HOSTNAME, { namespaces: ['other'] })] },
    );
    expect(filterAll(named, [db('d1', 'n1', 'other')])).toEqual({
      n1: 'ok',
      n2: AFFINITY,
      n3: AFFINITY,
      n4: AFFINITY,
    });
    const anti = withAffinity(
      'p',
      {},
      { anti: [term({ app: 'db' }, HOSTNAME, { namespaces: ['x', 'other'] })] },
    );
    expect(filterAll(anti, [db('d1', 'n1', 'other'), db('d2', 'n2')])).toEqual({
      n1: ANTI,
      n2: 'ok',
      n3: 'ok',
      n4: 'ok',
    });
  });

  it('selects namespaces by their labels with a namespace selector', () => {
    const pod = withAffinity(
      'p',
      {},
      { affinity: [term({ app: 'db' }, HOSTNAME, { namespaceSelector: { matchLabels: { team: 'data' } } })] },
    );
    const existing = [db('d1', 'n1', 'analytics'), db('d2', 'n2', 'web')];
    const namespaces = { analytics: { team: 'data' }, web: { team: 'front' } };
    expect(filterAll(pod, existing, namespaces)).toEqual({
      n1: 'ok',
      n2: AFFINITY,
      n3: AFFINITY,
      n4: AFFINITY,
    });
    // An empty namespace selector selects every namespace.
    const all = withAffinity(
      'p',
      {},
      { affinity: [term({ app: 'db' }, HOSTNAME, { namespaceSelector: {} })] },
    );
    expect(filterAll(all, existing, namespaces)).toEqual({ n1: 'ok', n2: 'ok', n3: AFFINITY, n4: AFFINITY });
  });

  it('lets the first pod of a group that selects itself in, on nodes with the topology key', () => {
    const pod = withAffinity('p', { labels: { app: 'web' } }, { affinity: [term({ app: 'web' }, ZONE)] });
    expect(filterAll(pod, [db('d1', 'n1')])).toEqual({ n1: 'ok', n2: 'ok', n3: 'ok', n4: AFFINITY });
    // Once a group member runs, the rule applies.
    expect(filterAll(pod, [web('w1', 'n3')])).toEqual({ n1: AFFINITY, n2: AFFINITY, n3: 'ok', n4: AFFINITY });
    // A pod that its own terms do not select gets no such exception.
    const other = withAffinity('p', { labels: { app: 'api' } }, { affinity: [term({ app: 'web' }, ZONE)] });
    expect(filterAll(other, [])).toEqual({ n1: AFFINITY, n2: AFFINITY, n3: AFFINITY, n4: AFFINITY });
  });

  it("honours existing pods' required anti-affinity (symmetry)", () => {
    const guard = withAffinity('g', { nodeName: 'n1' }, { anti: [term({ app: 'web' }, ZONE)] });
    expect(filterAll(web('p'), [guard])).toEqual({ n1: EXISTING, n2: EXISTING, n3: 'ok', n4: 'ok' });
    const hostGuard = withAffinity('g', { nodeName: 'n3' }, { anti: [term({ app: 'web' }, HOSTNAME)] });
    expect(filterAll(web('p'), [hostGuard])).toEqual({ n1: 'ok', n2: 'ok', n3: EXISTING, n4: 'ok' });
    expect(filterAll(db('p', ''), [hostGuard])).toEqual({ n1: 'ok', n2: 'ok', n3: 'ok', n4: 'ok' });
    // The existing pod's term looks in its own namespace.
    const otherNs = withAffinity(
      'g',
      { nodeName: 'n3', namespace: 'other' },
      { anti: [term({ app: 'web' }, HOSTNAME)] },
    );
    expect(filterAll(web('p'), [otherNs])).toEqual({ n1: 'ok', n2: 'ok', n3: 'ok', n4: 'ok' });
  });

  it('updates copies of its PreFilter state through the AddPod/RemovePod extensions', () => {
    // A zone-wide guard on n1 keeps web pods out of zone-a; the incoming pod wants a db pod in its zone.
    const guard = withAffinity('g', { nodeName: 'n1' }, { anti: [term({ app: 'web' }, ZONE)] });
    const dbPod = db('d', 'n3');
    const { infos, handle } = cluster([guard, dbPod]);
    const plugin = new InterPodAffinity(undefined, handle);
    const p = withAffinity('p', { labels: { app: 'web' } }, { affinity: [term({ app: 'db' }, ZONE)] });
    const state = new CycleState();
    plugin.preFilter(state, p);
    const [n1, n2, n3] = infos as [NodeInfo, NodeInfo, NodeInfo];
    const codeOn = (st: CycleState, info: NodeInfo) => plugin.filter(st, p, info)?.reasons.join() ?? 'ok';
    expect([codeOn(state, n2), codeOn(state, n3)]).toEqual([ERR_REASON_AFFINITY_RULES_NOT_MATCH, 'ok']);

    const ext = plugin.preFilterExtensions();
    const removed = state.clone();
    ext.removePod(removed, p, guard, n1);
    ext.removePod(removed, p, dbPod, n3);
    // Without any db pod, no pod matches the terms anywhere: the self-match rule does not apply
    // (the pod is no db), so every node fails; the guard no longer counts.
    expect([codeOn(removed, n2), codeOn(removed, n3)]).toEqual([
      ERR_REASON_AFFINITY_RULES_NOT_MATCH,
      ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ]);
    const added = removed.clone();
    ext.addPod(added, p, db('d2', 'n2'), n2);
    expect([codeOn(added, n1), codeOn(added, n2), codeOn(added, n3)]).toEqual([
      'ok',
      'ok',
      ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ]);
    ext.addPod(added, p, guard, n1);
    expect(codeOn(added, n2)).toBe(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
    // The original state is untouched.
    expect([codeOn(state, n2), codeOn(state, n3)]).toEqual([ERR_REASON_AFFINITY_RULES_NOT_MATCH, 'ok']);
  });

  it('reports an invalid selector of the pod as an error', () => {
    const pod = withAffinity(
      'p',
      {},
      {
        affinity: [
          { labelSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' }] }, topologyKey: ZONE },
        ],
      },
    );
    const { handle } = cluster([]);
    const status = new InterPodAffinity(undefined, handle).preFilter(new CycleState(), pod);
    expect(status?.code).toBe(Code.Error);
    expect(status?.message()).toContain('"Bad" is not a valid label selector operator');
  });
});

/** Normalized scores per node name. */
function scoreAll(pod: Pod, existing: Pod[], args?: unknown) {
  const { infos, handle } = cluster(existing);
  const plugin = new InterPodAffinity(args, handle);
  const state = new CycleState();
  const pre = plugin.preScore(state, pod, infos);
  expect(pre === undefined || pre.code === Code.Skip).toBe(true);
  const scores = new Float64Array(infos.map((i) => plugin.score(state, pod, i)));
  plugin.normalizeScore(state, pod, scores);
  return Object.fromEntries(infos.map((i, n) => [i.name, scores[n]]));
}

describe('InterPodAffinity score', () => {
  const db = (name: string, nodeName: string) => makePod(name, { labels: { app: 'db' }, nodeName });

  it('gives 0 everywhere without terms, skipping its Score', () => {
    expect(scoreAll(makePod('p'), [db('d1', 'n1')])).toEqual({ n1: 0, n2: 0, n3: 0, n4: 0 });
    const { infos, handle } = cluster([db('d1', 'n1')]);
    expect(
      new InterPodAffinity(undefined, handle).preScore(new CycleState(), makePod('p'), infos)?.code,
    ).toBe(Code.Skip);
  });

  it('prefers the zone of pods matching preferred affinity, weighted', () => {
    const pod = withAffinity(
      'p',
      {},
      {
        preferred: [
          [5, term({ app: 'db' }, ZONE)],
          [10, term({ app: 'cache' }, HOSTNAME)],
        ],
      },
    );
    const cache = makePod('c', { labels: { app: 'cache' }, nodeName: 'n3' });
    // zone-a: 5 (n1, n2); n3: 10; n4: 0.
    expect(scoreAll(pod, [db('d1', 'n1'), cache])).toEqual({ n1: 50, n2: 50, n3: 100, n4: 0 });
  });

  it('avoids the domains of pods matching preferred anti-affinity', () => {
    const pod = withAffinity('p', {}, { preferredAnti: [[20, term({ app: 'db' }, ZONE)]] });
    expect(scoreAll(pod, [db('d1', 'n1')])).toEqual({ n1: 0, n2: 0, n3: 100, n4: 100 });
  });

  it("counts existing pods' preferred terms selecting the incoming pod", () => {
    const fan = withAffinity('f', { nodeName: 'n3' }, { preferred: [[30, term({ app: 'web' }, HOSTNAME)]] });
    const hater = withAffinity(
      'h',
      { nodeName: 'n1' },
      { preferredAnti: [[30, term({ app: 'web' }, ZONE)]] },
    );
    const pod = makePod('p', { labels: { app: 'web' } });
    // n1, n2: -30; n3: +30; n4: 0 → min -30, max 30.
    expect(scoreAll(pod, [fan, hater])).toEqual({ n1: 0, n2: 0, n3: 100, n4: 50 });
  });

  it("weights existing pods' required affinity selecting the pod by hardPodAffinityWeight", () => {
    const needsWeb = withAffinity('x', { nodeName: 'n3' }, { affinity: [term({ app: 'web' }, HOSTNAME)] });
    const prefersWeb = withAffinity(
      'y',
      { nodeName: 'n1' },
      { preferred: [[3, term({ app: 'web' }, HOSTNAME)]] },
    );
    const pod = makePod('p', { labels: { app: 'web' } });
    // Default weight 1: n1 3, n3 1.
    expect(scoreAll(pod, [needsWeb, prefersWeb])).toEqual({ n1: 100, n2: 0, n3: 33, n4: 0 });
    // Weight 6: n3 wins.
    expect(scoreAll(pod, [needsWeb, prefersWeb], { hardPodAffinityWeight: 6 })).toEqual({
      n1: 50,
      n2: 0,
      n3: 100,
      n4: 0,
    });
    // Weight 0 leaves required terms out.
    expect(scoreAll(pod, [needsWeb, prefersWeb], { hardPodAffinityWeight: 0 })).toEqual({
      n1: 100,
      n2: 0,
      n3: 0,
      n4: 0,
    });
  });
});

describe('InterPodAffinity args', () => {
  it('accepts 0-100 and rejects anything else naming the field', () => {
    expect(validateInterPodAffinityArgs({ hardPodAffinityWeight: 0 })).toEqual({ hardPodAffinityWeight: 0 });
    expect(validateInterPodAffinityArgs(undefined)).toEqual({});
    expect(() => validateInterPodAffinityArgs({ hardPodAffinityWeight: 101 })).toThrow(
      'args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0-100]',
    );
    expect(() => validateInterPodAffinityArgs({ hardPodAffinityWeight: 'x' })).toThrow('not in valid range');
    expect(() => validateInterPodAffinityArgs([1])).toThrow('args: must be a mapping');
  });
});
