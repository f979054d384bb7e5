import { inTreeRegistry } from '../plugins/registry';
import { makeNode, makePod } from '../testing/fixtures';
import { MemoryCluster } from '../testing/memoryCluster';
import { CycleState } from './cycleState';
import { Framework } from './framework';
import { NodeInfo } from './nodeInfo';
import { defaultPlugins } from './profile';
import type { PermitPlugin, PluginFactory } from './interfaces';
import { Code, Status } from './status';

const deps = { client: new MemoryCluster(), nodeInfos: () => [] };

function registryWith(name: string, factory: PluginFactory) {
  const r = new Map(inTreeRegistry());
  r.set(name, factory);
  return r;
}

describe('Framework', () => {
  it('uses the default plugins', () => {
    const fwk = new Framework({ schedulerName: 'default-scheduler' }, inTreeRegistry(), deps);
    expect(fwk.pluginNames('filter')).toEqual([
      'NodeUnschedulable',
      'NodeResourcesFit',
      'NodeName',
      'NodePorts',
      'NodeAffinity',
      'VolumeRestrictions',
      'TaintToleration',
      'EBSLimits',
      'GCEPDLimits',
      'NodeVolumeLimits',
      'AzureDiskLimits',
      'VolumeBinding',
      'VolumeZone',
      'InterPodAffinity',
    ]);
    expect(fwk.pluginNames('preFilter')).toEqual([
      'NodeResourcesFit',
      'NodePorts',
      'InterPodAffinity',
      'NodeAffinity',
      'VolumeRestrictions',
      'EBSLimits',
      'GCEPDLimits',
      'NodeVolumeLimits',
      'AzureDiskLimits',
      'VolumeBinding',
      'VolumeZone',
    ]);
    expect(fwk.pluginNames('score')).toEqual([
      'NodeResourcesBalancedAllocation',
      'ImageLocality',
      'InterPodAffinity',
      'NodeResourcesLeastAllocated',
      'NodeAffinity',
      'NodePreferAvoidPods',
      'TaintToleration',
      'SelectorSpread',
    ]);
    expect(fwk.pluginNames('bind')).toEqual(['DefaultBinder']);
    expect(fwk.pluginNames('postFilter')).toEqual(['DefaultPreemption']);
  });

  it("has Kubernetes 1.19's default score weights, SelectorSpread only with DefaultPodTopologySpread off", () => {
    const defaults = defaultPlugins();
    expect(defaults.preScore.map((p) => p.name)).toEqual([
      'InterPodAffinity',
      'TaintToleration',
      'SelectorSpread',
    ]);
    expect(defaults.score.filter((p) => p.weight !== 1)).toEqual([
      { name: 'NodePreferAvoidPods', weight: 10000 },
    ]);
    const gated = defaultPlugins((name) => name === 'DefaultPodTopologySpread');
    expect(gated.preScore.map((p) => p.name)).not.toContain('SelectorSpread');
    expect(gated.score.map((p) => p.name)).not.toContain('SelectorSpread');
    const fwk = new Framework({ schedulerName: 'default-scheduler' }, inTreeRegistry(), {
      ...deps,
      featureEnabled: (name) => name === 'DefaultPodTopologySpread',
    });
    expect(fwk.pluginNames('score')).not.toContain('SelectorSpread');
  });

  it('lets a profile disable DefaultPreemption and configure its args', () => {
    const off = new Framework(
      {
        schedulerName: 'no-preemption',
        plugins: { postFilter: { disabled: [{ name: 'DefaultPreemption' }] } },
      },
      inTreeRegistry(),
      deps,
    );
    expect(off.pluginNames('postFilter')).toEqual([]);
    expect(off.hasPostFilterPlugins()).toBe(false);
    expect(
      () =>
        new Framework(
          {
            schedulerName: 'bad',
            pluginConfig: [{ name: 'DefaultPreemption', args: { minCandidateNodesAbsolute: -1 } }],
          },
          inTreeRegistry(),
          deps,
        ),
    ).toThrow(
      'DefaultPreemption args.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)',
    );
  });

  it('applies enabled and disabled plugins of a profile', () => {
    const fwk = new Framework(
      {
        schedulerName: 'custom',
        plugins: {
          filter: { disabled: [{ name: 'TaintToleration' }, { name: 'NodeName' }] },
          score: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeAffinity', weight: 5 }] },
        },
      },
      inTreeRegistry(),
      deps,
    );
    expect(fwk.pluginNames('filter')).toEqual([
      'NodeUnschedulable',
      'NodeResourcesFit',
      'NodePorts',
      'NodeAffinity',
      'VolumeRestrictions',
      'EBSLimits',
      'GCEPDLimits',
      'NodeVolumeLimits',
      'AzureDiskLimits',
      'VolumeBinding',
      'VolumeZone',
      'InterPodAffinity',
    ]);
    expect(fwk.pluginNames('score')).toEqual(['NodeAffinity']);
  });

  it.each([
    [{ filter: { enabled: [{ name: 'Nope' }] } }, 'plugin "Nope" does not exist'],
    [{ score: { enabled: [{ name: 'NodeName' }] } }, 'plugin "NodeName" does not extend score plugin'],
    [{ bind: { disabled: [{ name: '*' }] } }, 'at least one bind plugin is required'],
    [{ score: { enabled: [{ name: 'NodeAffinity', weight: -1 }] } }, 'invalid weight -1'],
  ])('rejects %j', (plugins, message) => {
    expect(() => new Framework({ schedulerName: 'x', plugins }, inTreeRegistry(), deps)).toThrow(message);
  });

  it('rejects a waiting pod when the Permit timeout passes', async () => {
    const registry = registryWith(
      'Slow',
      () =>
        ({
          name: 'Slow',
          permit: () => ({ status: new Status(Code.Wait), timeoutMs: 20 }),
        }) satisfies PermitPlugin,
    );
    const fwk = new Framework(
      { schedulerName: 'x', plugins: { permit: { enabled: [{ name: 'Slow' }] } } },
      registry,
      deps,
    );
    const pod = makePod('p');
    expect(fwk.runPermitPlugins(new CycleState(), pod, 'n').code).toBe(Code.Wait);
    const result = await fwk.waitOnPermit(pod);
    expect(result.code).toBe(Code.Unschedulable);
    expect(result.message()).toBe('rejected due to timeout after waiting 0.02s at plugin Slow');
    expect(fwk.getWaitingPod('uid-default-p')).toBeUndefined();
  });

  it('lets a plugin reject a waiting pod', async () => {
    const registry = registryWith(
      'Gate',
      () =>
        ({
          name: 'Gate',
          permit: () => ({ status: new Status(Code.Wait), timeoutMs: 60_000 }),
        }) satisfies PermitPlugin,
    );
    const fwk = new Framework(
      { schedulerName: 'x', plugins: { permit: { enabled: [{ name: 'Gate' }] } } },
      registry,
      deps,
    );
    const pod = makePod('p');
    fwk.runPermitPlugins(new CycleState(), pod, 'n');
    const waiting = fwk.waitOnPermit(pod);
    fwk.iterateOverWaitingPods((wp) => wp.reject('not today'));
    expect((await waiting).message()).toBe('not today');
  });

  it('leaves out the Filter and Score of plugins whose PreFilter and PreScore answer Skip', () => {
    const calls: string[] = [];
    const registry = registryWith('Skippy', () => ({
      name: 'Skippy',
      preFilter: () => new Status(Code.Skip),
      filter: () => (calls.push('filter'), Status.unschedulable('never')),
      preScore: () => new Status(Code.Skip),
      score: () => (calls.push('score'), 100),
    }));
    const fwk = new Framework(
      {
        schedulerName: 'x',
        plugins: {
          preFilter: { enabled: [{ name: 'Skippy' }] },
          filter: { enabled: [{ name: 'Skippy' }] },
          preScore: { enabled: [{ name: 'Skippy' }] },
          score: { disabled: [{ name: '*' }], enabled: [{ name: 'Skippy' }] },
        },
      },
      registry,
      deps,
    );
    const state = new CycleState();
    const pod = makePod('p');
    const info = new NodeInfo(makeNode('n'));
    expect(fwk.runPreFilterPlugins(state, pod).isSuccess()).toBe(true);
    expect(fwk.runFilterPlugins(state, pod, info).isSuccess()).toBe(true);
    expect(fwk.runPreScorePlugins(state, pod, [info]).isSuccess()).toBe(true);
    expect([...fwk.runScorePlugins(state, pod, [info])]).toEqual([0]);
    expect(calls).toEqual([]);
    // Without the Skip, both run.
    const fresh = new CycleState();
    expect(fwk.runFilterPlugins(fresh, pod, info).reasons).toEqual(['never']);
    expect([...fwk.runScorePlugins(fresh, pod, [info])]).toEqual([100]);
  });

  it('falls through binders that answer Skip', async () => {
    const registry = registryWith('Skipper', () => ({
      name: 'Skipper',
      bind: async () => new Status(Code.Skip),
    }));
    const cluster = new MemoryCluster();
    cluster.addPod(makePod('p'));
    const fwk = new Framework(
      {
        schedulerName: 'x',
        plugins: {
          bind: { disabled: [{ name: '*' }], enabled: [{ name: 'Skipper' }, { name: 'DefaultBinder' }] },
        },
      },
      registry,
      { client: cluster, nodeInfos: () => [] },
    );
    expect((await fwk.runBindPlugins(new CycleState(), makePod('p'), 'node-1')).isSuccess()).toBe(true);
    expect(cluster.bindings).toEqual([{ pod: 'default/p', node: 'node-1' }]);
  });
});
