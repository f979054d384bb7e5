import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { defaultPlugins, gateDefault } from '../../framework/profile';
import { makeNode, makePod } from '../../testing/fixtures';
import {
  ERR_NODE_NETWORK_UNAVAILABLE,
  ERR_NODE_NOT_READY,
  ERR_NODE_UNDER_DISK_PRESSURE,
  ERR_NODE_UNDER_MEMORY_PRESSURE,
  ERR_NODE_UNDER_PID_PRESSURE,
  NodeCondition,
} from './nodeCondition';

type Conditions = { type: string; status: string }[];

function nodeWith(conditions: Conditions, unschedulable = false) {
  const node = makeNode('n', { unschedulable });
  return new NodeInfo({ ...node, status: { ...node.status, conditions } });
}

describe('NodeCondition', () => {
  const plugin = new NodeCondition();
  const bestEffort = makePod('be', {});
  const burstable = makePod('b', { requests: { cpu: '100m' } });
  const reasons = (conditions: Conditions, pod = bestEffort, unschedulable = false) =>
    plugin.filter(new CycleState(), pod, nodeWith(conditions, unschedulable))?.reasons ?? [];

  it.each([
    ['a Ready node', [{ type: 'Ready', status: 'True' }], []],
    ['a node not Ready', [{ type: 'Ready', status: 'False' }], [ERR_NODE_NOT_READY]],
    ['a node of Unknown readiness', [{ type: 'Ready', status: 'Unknown' }], [ERR_NODE_NOT_READY]],
    [
      'network unavailable, and not ready',
      [
        { type: 'Ready', status: 'False' },
        { type: 'NetworkUnavailable', status: 'True' },
      ],
      [ERR_NODE_NOT_READY, ERR_NODE_NETWORK_UNAVAILABLE],
    ],
    ['network available', [{ type: 'NetworkUnavailable', status: 'False' }], []],
    ['disk pressure', [{ type: 'DiskPressure', status: 'True' }], [ERR_NODE_UNDER_DISK_PRESSURE]],
    ['pid pressure', [{ type: 'PIDPressure', status: 'True' }], [ERR_NODE_UNDER_PID_PRESSURE]],
    [
      'memory pressure, BestEffort pod',
      [{ type: 'MemoryPressure', status: 'True' }],
      [ERR_NODE_UNDER_MEMORY_PRESSURE],
    ],
  ])('%s', (_name, conditions, want) => {
    expect(reasons(conditions)).toEqual(want);
  });

  it('lets pods with requests onto a node under memory pressure only', () => {
    expect(reasons([{ type: 'MemoryPressure', status: 'True' }], burstable)).toEqual([]);
    expect(reasons([{ type: 'DiskPressure', status: 'True' }], burstable)).toEqual([
      ERR_NODE_UNDER_DISK_PRESSURE,
    ]);
  });

  it('keeps every pod off a cordoned node, whatever it tolerates, and fails as unresolvable', () => {
    const tolerant = makePod('t', { tolerations: [{ operator: 'Exists' }] });
    const status = plugin.filter(
      new CycleState(),
      tolerant,
      nodeWith([{ type: 'Ready', status: 'True' }], true),
    );
    expect(status?.reasons).toEqual(['node(s) were unschedulable']);
    expect(status?.code).toBe(Code.UnschedulableAndUnresolvable);
  });
});

describe('the default filters', () => {
  const filters = (gates: Record<string, boolean>) =>
    defaultPlugins((name) => gates[name] ?? gateDefault(name)).filter.map((p) => p.name);

  it('check cordoning through its taint while TaintNodesByCondition is on (its default)', () => {
    expect(gateDefault('TaintNodesByCondition')).toBe(true);
    expect(filters({})).toContain('NodeUnschedulable');
    expect(filters({})).not.toContain('NodeCondition');
  });

  it('check node conditions and cordoning directly, first, with TaintNodesByCondition off', () => {
    const off = filters({ TaintNodesByCondition: false });
    expect(off[0]).toBe('NodeCondition');
    expect(off).not.toContain('NodeUnschedulable');
    expect(off).toContain('TaintToleration');
  });
});
