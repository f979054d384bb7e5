import type { Taint, Toleration } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { TaintToleration } from './taintToleration';

describe('TaintToleration', () => {
  const plugin = new TaintToleration();

  it.each<[string, Taint[], Toleration[], string | undefined]>([
    ['no taints', [], [], undefined],
    [
      'untolerated NoSchedule taint',
      [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      [],
      "node(s) had taint {dedicated: gpu}, that the pod didn't tolerate",
    ],
    [
      'untolerated NoExecute taint',
      [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      [],
      "node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate",
    ],
    [
      'PreferNoSchedule never filters',
      [{ key: 'soft', value: 'x', effect: 'PreferNoSchedule' }],
      [],
      undefined,
    ],
    [
      'tolerated taint',
      [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      undefined,
    ],
    [
      'first untolerated taint is reported',
      [
        { key: 'a', value: '1', effect: 'NoSchedule' },
        { key: 'b', value: '2', effect: 'NoSchedule' },
      ],
      [{ key: 'a', operator: 'Exists' }],
      "node(s) had taint {b: 2}, that the pod didn't tolerate",
    ],
  ])('filter: %s', (_name, taints, tolerations, reason) => {
    const status = plugin.filter(
      new CycleState(),
      makePod('p', { tolerations }),
      new NodeInfo(makeNode('n', { taints })),
    );
    if (reason === undefined) expect(status).toBeUndefined();
    else {
      expect(status?.code).toBe(Code.UnschedulableAndUnresolvable);
      expect(status?.reasons).toEqual([reason]);
    }
  });

  it('scores fewer untolerated PreferNoSchedule taints higher (reverse normalized)', () => {
    const pod = makePod('p', {
      tolerations: [{ key: 'tolerated', operator: 'Exists', effect: 'PreferNoSchedule' }],
    });
    const nodes = [
      makeNode('clean'),
      makeNode('one', { taints: [{ key: 'soft', value: 'a', effect: 'PreferNoSchedule' }] }),
      makeNode('two', {
        taints: [
          { key: 'soft', value: 'a', effect: 'PreferNoSchedule' },
          { key: 'soft2', value: 'b', effect: 'PreferNoSchedule' },
          { key: 'tolerated', value: 'c', effect: 'PreferNoSchedule' },
          { key: 'hard', value: 'd', effect: 'NoSchedule' },
        ],
      }),
    ].map((n) => new NodeInfo(n));
    const state = new CycleState();
    plugin.preScore(state, pod);
    const scores = Float64Array.from(nodes.map((n) => plugin.score(state, pod, n)));
    expect([...scores]).toEqual([0, 1, 2]);
    plugin.normalizeScore(state, pod, scores);
    expect([...scores]).toEqual([100, 50, 0]);
  });

  it('gives every node the maximum score when none has PreferNoSchedule taints', () => {
    const scores = Float64Array.from([0, 0]);
    plugin.normalizeScore(new CycleState(), makePod('p'), scores);
    expect([...scores]).toEqual([100, 100]);
  });
});
