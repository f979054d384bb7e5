import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { NodeName } from './nodeName';

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
