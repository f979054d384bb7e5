import type { Node } from '@orch/api';
import type { NodeCondition } from './conditionTaints';
import {
  computeZoneState,
  isExcludedFromDisruptionChecks,
  planDisruption,
  zoneEvictionRate,
  type ZoneState,
} from './zoneStates';

const withLabels = (labels: Record<string, string>): Node => ({ metadata: { name: 'n', labels } }) as Node;
const ready = (status: string): NodeCondition => ({ type: 'Ready', status });
const many = (n: number, status: string) => Array.from({ length: n }, () => ready(status));
const rates = { nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, largeClusterSizeThreshold: 50 };

describe('zone states', () => {
  const gates = (nodeDisruptionExclusion: boolean, legacyNodeRoleBehavior = false) => ({
    nodeDisruptionExclusion,
    legacyNodeRoleBehavior,
  });

  test('the exclude-disruption label, honoured with the NodeDisruptionExclusion gate on', () => {
    const labelled = withLabels({ 'node.kubernetes.io/exclude-disruption': '' });
    expect(isExcludedFromDisruptionChecks(labelled, gates(true))).toBe(true);
    expect(isExcludedFromDisruptionChecks(withLabels({}), gates(true))).toBe(false);
  });

  test('the exclude-disruption label is ignored with the NodeDisruptionExclusion gate off', () => {
    const labelled = withLabels({ 'node.kubernetes.io/exclude-disruption': '' });
    expect(isExcludedFromDisruptionChecks(labelled, gates(false))).toBe(false);
  });

  test.each([
    ['master', true],
    ['kube-master', true],
    ['kube-master-a1b', true],
    ['master-a1b', true],
    ['kube-master-a1', false],
    ['master-1', false],
    ['masters', false],
    ['node-1', false],
  ])('with LegacyNodeRoleBehavior on, %s is a master by name: %s', (name, master) => {
    const node = { metadata: { name } } as Node;
    expect(isExcludedFromDisruptionChecks(node, gates(false, true))).toBe(master);
    expect(isExcludedFromDisruptionChecks(node, gates(false, false))).toBe(false);
  });
});

describe('computeZoneState', () => {
  test.each([
    [[...many(3, 'True')], 'Normal', 0],
    [[...many(1, 'True'), ...many(2, 'False')], 'Normal', 2],
    [[...many(2, 'True'), ...many(3, 'Unknown')], 'PartialDisruption', 3],
    [[...many(3, 'True'), ...many(3, 'False')], 'Normal', 3],
    [[...many(2, 'True'), ...many(3, 'False'), undefined], 'PartialDisruption', 4],
    [[...many(2, 'Unknown')], 'FullDisruption', 2],
    [[undefined], 'FullDisruption', 1],
    [[], 'Normal', 0],
  ])('%# → %s', (conditions, state, notReady) => {
    expect(computeZoneState(conditions, 0.55)).toEqual({ state, notReady });
  });
});

describe('zoneEvictionRate', () => {
  test('the primary rate when normal or fully disrupted; the secondary one only in large zones', () => {
    expect(zoneEvictionRate('Normal', 10, rates)).toBe(0.1);
    expect(zoneEvictionRate('FullDisruption', 10, rates)).toBe(0.1);
    expect(zoneEvictionRate('PartialDisruption', 50, rates)).toBe(0);
    expect(zoneEvictionRate('PartialDisruption', 51, rates)).toBe(0.01);
  });
});

describe('planDisruption', () => {
  const zones = (entries: [string, (NodeCondition | undefined)[]][]) => new Map(entries);
  const states = (entries: [string, ZoneState][]) => new Map(entries);

  test('new zones start from Initial and take the rate of their state', () => {
    const plan = planDisruption(
      new Map(),
      zones([
        ['a', many(3, 'True')],
        ['b', [...many(1, 'True'), ...many(4, 'False')]],
      ]),
      0.55,
      rates,
    );
    expect(plan.action).toBe('update');
    expect([...plan.states]).toEqual([
      ['a', 'Normal'],
      ['b', 'PartialDisruption'],
    ]);
    expect([...plan.rates]).toEqual([
      ['a', 0.1],
      ['b', 0],
    ]);
  });

  test('an unchanged zone keeps its rate', () => {
    const plan = planDisruption(states([['a', 'Normal']]), zones([['a', many(3, 'True')]]), 0.55, rates);
    expect(plan.rates.size).toBe(0);
  });

  test('one zone fully down while another is up: it keeps tainting at the normal rate', () => {
    const plan = planDisruption(
      states([
        ['a', 'Normal'],
        ['b', 'Normal'],
      ]),
      zones([
        ['a', many(3, 'True')],
        ['b', many(2, 'Unknown')],
      ]),
      0.55,
      rates,
    );
    expect(plan.action).toBe('update');
    expect([...plan.rates]).toEqual([['b', 0.1]]);
    expect(plan.states.get('b')).toBe('FullDisruption');
  });

  test('every zone down: full disruption stops all tainting; staying down changes nothing', () => {
    const down = zones([
      ['a', many(2, 'Unknown')],
      ['b', many(1, 'False')],
    ]);
    const enter = planDisruption(
      states([
        ['a', 'Normal'],
        ['b', 'Normal'],
      ]),
      down,
      0.55,
      rates,
    );
    expect(enter.action).toBe('enterFullDisruption');
    expect([...enter.rates]).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
    const stay = planDisruption(enter.states, down, 0.55, rates);
    expect(stay.action).toBe('none');
    expect(stay.rates.size).toBe(0);
  });

  test('leaving full disruption resets every zone to the rate of its state', () => {
    const plan = planDisruption(
      states([
        ['a', 'FullDisruption'],
        ['b', 'FullDisruption'],
      ]),
      zones([
        ['a', [...many(1, 'True'), ...many(1, 'Unknown')]],
        ['b', many(1, 'Unknown')],
      ]),
      0.55,
      rates,
    );
    expect(plan.action).toBe('exitFullDisruption');
    expect([...plan.rates]).toEqual([
      ['a', 0.1],
      ['b', 0.1],
    ]);
    expect([...plan.states]).toEqual([
      ['a', 'Normal'],
      ['b', 'FullDisruption'],
    ]);
  });

  test('a zone with no nodes left is forgotten', () => {
    const plan = planDisruption(
      states([
        ['a', 'Normal'],
        ['gone', 'Normal'],
      ]),
      zones([['a', many(1, 'True')]]),
      0.55,
      rates,
    );
    expect([...plan.states.keys()]).toEqual(['a']);
  });
});
