import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { makeNode, makePod } from '../../testing/fixtures';
import { NodeUnschedulable } from './nodeUnschedulable';

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
    [
      'cordoned node, NoExecute toleration only',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }],
      false,
    ],
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
