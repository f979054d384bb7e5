import { CycleState } from '../framework/cycleState';
import { NodeInfo } from '../framework/nodeInfo';
import { Code } from '../framework/status';
import { makeNode, makePod } from '../testing/fixtures';
import { NodeName } from './nodename/nodeName';
import { NodeUnschedulable } from './nodeunschedulable/nodeUnschedulable';
import { PrioritySort } from './prioritysort/prioritySort';

describe('NodeName', () => {
  const plugin = new NodeName();
  it.each([
    [undefined, true],
    ['node-1', true],
    ['node-2', false],
  ])('pod nodeName %s fits node-1: %s', (nodeName, want) => {
    const status = plugin.filter(
      new CycleState(),
      makePod('p', nodeName ? { nodeName } : {}),
      new NodeInfo(makeNode('node-1')),
    );
    expect(status === undefined).toBe(want);
    if (status) {
      expect(status.code).toBe(Code.UnschedulableAndUnresolvable);
      expect(status.reasons).toEqual(["node(s) didn't match the requested hostname"]);
    }
  });
});

describe('NodeUnschedulable', () => {
  const plugin = new NodeUnschedulable();
  it.each([
    ['schedulable node', false, [], true],
    ['cordoned node', true, [], false],
    [
      'cordoned node, pod tolerates the unschedulable taint',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      true,
    ],
    ['cordoned node, toleration of all taints', true, [{ operator: 'Exists' }], true],
    ['cordoned node, NoExecute toleration only', true, [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }], false],
  ])('%s', (_name, unschedulable, tolerations, want) => {
    const status = plugin.filter(
      new CycleState(),
      makePod('p', { tolerations }),
      new NodeInfo(makeNode('n', { unschedulable })),
    );
    expect(status === undefined).toBe(want);
    if (status) expect(status.reasons).toEqual(['node(s) were unschedulable']);
  });
});

describe('PrioritySort', () => {
  const plugin = new PrioritySort();
  const info = (priority: number | undefined, timestamp: number) => ({
    pod: makePod(`p${priority}-${timestamp}`, priority === undefined ? {} : { priority }),
    timestamp,
    attempts: 0,
    initialAttemptTimestamp: timestamp,
  });
  it.each([
    ['higher priority first', info(10, 2), info(5, 1), true],
    ['lower priority later', info(5, 1), info(10, 2), false],
    ['same priority, earlier first', info(5, 1), info(5, 2), true],
    ['same priority, later not first', info(5, 2), info(5, 1), false],
    ['missing priority is 0', info(undefined, 1), info(-1, 0), true],
  ])('%s', (_name, a, b, want) => {
    expect(plugin.less(a, b)).toBe(want);
  });
});
