import type { Node, Pod } from '@orch/api';
import { CycleState } from '../../framework/cycleState';
import { NodeInfo } from '../../framework/nodeInfo';
import { makeNode, makePod } from '../../testing/fixtures';
import {
  avoidPodsFromAnnotations,
  NodePreferAvoidPods,
  PREFER_AVOID_PODS_ANNOTATION,
} from './nodePreferAvoidPods';

function avoiding(name: string, controllers: { kind: string; uid: string }[] | string): Node {
  const node = makeNode(name);
  const value =
    typeof controllers === 'string'
      ? controllers
      : JSON.stringify({
          preferAvoidPods: controllers.map((c) => ({
            podSignature: { podController: { apiVersion: 'v1', name: 'foo', controller: true, ...c } },
            evictionTime: '2016-04-05T10:00:00Z',
            reason: 'some reason',
            message: 'some message',
          })),
        });
  node.metadata!.annotations = { [PREFER_AVOID_PODS_ANNOTATION]: value };
  return node;
}

function ownedBy(kind: string, uid: string, controller = true): Pod {
  const pod = makePod('p');
  pod.metadata!.ownerReferences = [{ apiVersion: 'v1', kind, name: 'foo', uid, controller }];
  return pod;
}

const nodes = [
  avoiding('avoids-rc', [{ kind: 'ReplicationController', uid: 'abcdef' }]),
  avoiding('avoids-rs', [{ kind: 'ReplicaSet', uid: 'qwert' }]),
  makeNode('plain'),
];

function scores(pod: Pod, on: Node[] = nodes): number[] {
  const plugin = new NodePreferAvoidPods();
  return on.map((n) => plugin.score(new CycleState(), pod, new NodeInfo(n)));
}

describe('NodePreferAvoidPods', () => {
  it.each<[string, Pod, number[]]>([
    ['a ReplicationController pod', ownedBy('ReplicationController', 'abcdef'), [0, 100, 100]],
    ['a ReplicaSet pod', ownedBy('ReplicaSet', 'qwert'), [100, 0, 100]],
    ['another ReplicaSet', ownedBy('ReplicaSet', 'other'), [100, 100, 100]],
    ['the same uid under another kind', ownedBy('ReplicaSet', 'abcdef'), [100, 100, 100]],
    ['a pod of another kind of controller', ownedBy('StatefulSet', 'qwert'), [100, 100, 100]],
    ['an owner that is not the controller', ownedBy('ReplicaSet', 'qwert', false), [100, 100, 100]],
    ['a pod without owners', makePod('p'), [100, 100, 100]],
  ])('scores nodes for %s', (_name, pod, expected) => {
    expect(scores(pod)).toEqual(expected);
  });

  it('does not keep pods away from a node whose annotation cannot be read', () => {
    const broken = [avoiding('garbage', '{not json'), avoiding('wrong-type', '{"preferAvoidPods":{}}')];
    expect(scores(ownedBy('ReplicaSet', 'qwert'), broken)).toEqual([100, 100]);
    expect(() => avoidPodsFromAnnotations({ [PREFER_AVOID_PODS_ANNOTATION]: '{not json' })).toThrow();
  });
});
