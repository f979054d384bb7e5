import type { NodeSelectorRequirement } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { Code } from '../../framework/status';
import { makeNode, makePod } from '../../testing/fixtures';
import { ERR_NODE_SELECTOR_NOT_MATCH, NodeAffinity } from './nodeAffinity';

const node = new NodeInfo(makeNode('node-1', { labels: { zone: 'us-east-1a', gen: '5', disk: 'ssd' } }));

function requiredPod(...matchExpressions: NodeSelectorRequirement[]) {
  return makePod('p', {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] },
      },
    },
  });
}

function fits(pod: ReturnType<typeof makePod>): boolean {
  const plugin = new NodeAffinity();
  const state = new CycleState();
  plugin.preFilter(state, pod);
  const status = plugin.filter(state, pod, node);
  if (status) {
    expect(status.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(status.reasons).toEqual([ERR_NODE_SELECTOR_NOT_MATCH]);
  }
  return status === undefined;
}

describe('NodeAffinity filter', () => {
  it.each<[string, NodeSelectorRequirement, boolean]>([
    ['In matching', { key: 'zone', operator: 'In', values: ['us-east-1a', 'us-east-1b'] }, true],
    ['In not matching', { key: 'zone', operator: 'In', values: ['us-west-1a'] }, false],
    ['In on a missing label', { key: 'rack', operator: 'In', values: ['r1'] }, false],
    ['NotIn matching', { key: 'zone', operator: 'NotIn', values: ['us-west-1a'] }, true],
    ['NotIn not matching', { key: 'zone', operator: 'NotIn', values: ['us-east-1a'] }, false],
    ['NotIn on a missing label', { key: 'rack', operator: 'NotIn', values: ['r1'] }, true],
    ['Exists', { key: 'disk', operator: 'Exists' }, true],
    ['Exists on a missing label', { key: 'gpu', operator: 'Exists' }, false],
    ['DoesNotExist', { key: 'gpu', operator: 'DoesNotExist' }, true],
    ['DoesNotExist on a present label', { key: 'disk', operator: 'DoesNotExist' }, false],
    ['Gt true', { key: 'gen', operator: 'Gt', values: ['4'] }, true],
    ['Gt false', { key: 'gen', operator: 'Gt', values: ['5'] }, false],
    ['Lt true', { key: 'gen', operator: 'Lt', values: ['6'] }, true],
    ['Lt false', { key: 'gen', operator: 'Lt', values: ['5'] }, false],
    ['Gt on a non-integer label', { key: 'zone', operator: 'Gt', values: ['1'] }, false],
    ['unknown operator', { key: 'zone', operator: 'Near', values: ['x'] }, false],
  ])('%s', (_name, req, want) => {
    expect(fits(requiredPod(req))).toBe(want);
  });

  it('ANDs the expressions of a term and ORs the terms', () => {
    expect(
      fits(
        requiredPod(
          { key: 'zone', operator: 'In', values: ['us-east-1a'] },
          { key: 'disk', operator: 'In', values: ['hdd'] },
        ),
      ),
    ).toBe(false);
    const pod = makePod('p', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'disk', operator: 'In', values: ['hdd'] }] },
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] },
            ],
          },
        },
      },
    });
    expect(fits(pod)).toBe(true);
  });

  it('treats an empty term as matching nothing', () => {
    const pod = makePod('p', {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } },
      },
    });
    expect(fits(pod)).toBe(false);
  });

  it.each<[Record<string, string>, boolean]>([
    [{ zone: 'us-east-1a' }, true],
    [{ zone: 'us-east-1a', disk: 'ssd' }, true],
    [{ zone: 'us-east-1a', disk: 'hdd' }, false],
    [{ rack: 'r1' }, false],
  ])('nodeSelector %j fits: %s', (nodeSelector, want) => {
    expect(fits(makePod('p', { nodeSelector }))).toBe(want);
  });

  it('requires both the nodeSelector and the node affinity', () => {
    const pod = requiredPod({ key: 'zone', operator: 'Exists' });
    pod.spec!.nodeSelector = { disk: 'hdd' };
    expect(fits(pod)).toBe(false);
  });
});

describe('NodeAffinity score', () => {
  it('sums the weights of matching preferred terms and normalizes to 0-100', () => {
    const pod = makePod('p', {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] },
            },
            {
              weight: 30,
              preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
            },
          ],
        },
      },
    });
    const nodes = [
      makeNode('ssd-a', { labels: { disk: 'ssd', zone: 'a' } }),
      makeNode('ssd', { labels: { disk: 'ssd' } }),
      makeNode('a', { labels: { zone: 'a' } }),
      makeNode('none'),
    ].map((n) => new NodeInfo(n));
    const plugin = new NodeAffinity();
    const state = new CycleState();
    plugin.preFilter(state, pod);
    const scores = Float64Array.from(nodes.map((n) => plugin.score(state, pod, n)));
    expect([...scores]).toEqual([40, 10, 30, 0]);
    plugin.normalizeScore(state, pod, scores);
    expect([...scores]).toEqual([100, 25, 75, 0]);
  });
});
