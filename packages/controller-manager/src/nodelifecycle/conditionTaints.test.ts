import { formatTime, type Node, type Taint } from '@orch/api';
import { conditionNoScheduleTaints, noScheduleTaintDiff, swapTaints } from './conditionTaints';

const node = (conditions: Record<string, string>, taints: Taint[] = [], unschedulable = false): Node =>
  ({
    metadata: { name: 'n' },
    spec: { taints, ...(unschedulable ? { unschedulable } : {}) },
    status: { conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })) },
  }) as Node;

const ns = (key: string): Taint => ({ key: `node.kubernetes.io/${key}`, effect: 'NoSchedule' });

describe('conditionNoScheduleTaints', () => {
  test.each([
    [{ Ready: 'True' }, []],
    [{ Ready: 'False' }, ['not-ready']],
    [{ Ready: 'Unknown' }, ['unreachable']],
    [{ Ready: 'True', MemoryPressure: 'True' }, ['memory-pressure']],
    [{ Ready: 'True', DiskPressure: 'True' }, ['disk-pressure']],
    [{ Ready: 'True', PIDPressure: 'True' }, ['pid-pressure']],
    [{ Ready: 'True', NetworkUnavailable: 'True' }, ['network-unavailable']],
    [{ Ready: 'True', MemoryPressure: 'False', DiskPressure: 'Unknown', NetworkUnavailable: 'False' }, []],
  ])('%j → %j', (conditions, keys) => {
    expect(conditionNoScheduleTaints(node(conditions))).toEqual(keys.map(ns));
  });

  test('spec.unschedulable → unschedulable', () => {
    expect(conditionNoScheduleTaints(node({ Ready: 'True' }, [], true))).toEqual([ns('unschedulable')]);
  });
});

describe('noScheduleTaintDiff', () => {
  test('adds the missing, removes those whose condition cleared, leaves other taints alone', () => {
    const n = node({ Ready: 'True', DiskPressure: 'True' }, [
      { ...ns('not-ready'), timeAdded: '2024-01-01T00:00:00Z' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    ]);
    expect(noScheduleTaintDiff(n)).toEqual({
      add: [ns('disk-pressure')],
      remove: [{ ...ns('not-ready'), timeAdded: '2024-01-01T00:00:00Z' }],
    });
  });

  test('nothing when the taints match', () => {
    expect(noScheduleTaintDiff(node({ Ready: 'False' }, [ns('not-ready')]))).toEqual({ add: [], remove: [] });
  });

  test('cordoning and uncordoning', () => {
    expect(noScheduleTaintDiff(node({ Ready: 'True' }, [], true)).add).toEqual([ns('unschedulable')]);
    expect(noScheduleTaintDiff(node({ Ready: 'True' }, [ns('unschedulable')])).remove).toEqual([
      ns('unschedulable'),
    ]);
  });
});

describe('swapTaints', () => {
  const now = Date.parse('2024-05-01T10:00:00Z');
  const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
  const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };

  test('adds with timeAdded now and removes by key and effect', () => {
    const other: Taint = { key: 'x', value: 'y', effect: 'NoSchedule' };
    expect(swapTaints([other, { ...notReady, timeAdded: 'old' }], [unreachable], [notReady], now)).toEqual([
      other,
      { ...unreachable, timeAdded: formatTime(now) },
    ]);
  });

  test('undefined when nothing changes; a taint already there keeps its timeAdded', () => {
    expect(swapTaints([], [], [notReady], now)).toBeUndefined();
    expect(
      swapTaints([{ ...unreachable, timeAdded: 'then' }], [unreachable], [notReady], now),
    ).toBeUndefined();
  });

  test('a NoSchedule taint of the same key is another taint', () => {
    const noSchedule: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' };
    expect(swapTaints([noSchedule], [], [unreachable], now)).toBeUndefined();
    expect(swapTaints(undefined, [unreachable], [], now)).toEqual([
      { ...unreachable, timeAdded: formatTime(now) },
    ]);
  });
});
