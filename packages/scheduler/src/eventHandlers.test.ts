import type { Node } from '@orch/api';
import { nodeSchedulingPropertiesChange } from './eventHandlers';
import { makeNode } from './testing/fixtures';

describe('nodeSchedulingPropertiesChange', () => {
  const base = makeNode('n', { unschedulable: true });
  const changed = (f: (n: Node) => void): Node => {
    const copy = JSON.parse(JSON.stringify(base)) as Node;
    f(copy);
    return copy;
  };

  it.each<[string, Node, string | undefined]>([
    ['nothing relevant (heartbeat)', changed((n) => (n.metadata!.resourceVersion = '9')), undefined],
    ['uncordoned', changed((n) => (n.spec!.unschedulable = false)), 'NodeSpecUnschedulableChange'],
    ['allocatable', changed((n) => (n.status!.allocatable = { cpu: '8' })), 'NodeAllocatableChange'],
    ['labels', changed((n) => (n.metadata!.labels = { zone: 'b' })), 'NodeLabelChange'],
    ['taints', changed((n) => (n.spec!.taints = [{ key: 'k', effect: 'NoSchedule' }])), 'NodeTaintChange'],
    [
      'conditions',
      changed((n) => (n.status!.conditions = [{ type: 'Ready', status: 'True' }])),
      'NodeConditionChange',
    ],
  ])('%s', (_name, updated, want) => {
    expect(nodeSchedulingPropertiesChange(updated, base)).toBe(want);
  });

  it('ignores cordoning (it cannot make pods fit)', () => {
    const schedulable = makeNode('n');
    expect(
      nodeSchedulingPropertiesChange(makeNode('n', { unschedulable: true }), schedulable),
    ).toBeUndefined();
  });
});
