import type { Node } from '../../kinds/core/node';
import type { PersistentVolume } from '../../kinds/core/persistent-volume';
import type { PersistentVolumeClaim } from '../../kinds/core/persistent-volume-claim';
import {
  ANN_BOUND_BY_CONTROLLER,
  findMatchingVolume,
  volumeBoundToClaim,
  volumeNodeAffinityMatches,
} from './volume-matching';

const HOSTNAME = 'kubernetes.io/hostname';

function node(name: string): Node {
  return { metadata: { name, labels: { [HOSTNAME]: name } } } as Node;
}

function volume(
  name: string,
  spec: Partial<PersistentVolume['spec']> = {},
  onNode?: string,
): PersistentVolume {
  return {
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local',
      ...(onNode
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: HOSTNAME, operator: 'In', values: [onNode] }] },
                ],
              },
            },
          }
        : {}),
      ...spec,
    },
    status: { phase: 'Available' },
  } as PersistentVolume;
}

const claim = {
  metadata: { name: 'c', namespace: 'ns', uid: 'uid-c', resourceVersion: '7' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '1Gi' } },
    storageClassName: 'local',
  },
} as PersistentVolumeClaim;

const names = (v: PersistentVolume | undefined) => v?.metadata?.name;

describe('findMatchingVolume', () => {
  test('the binder path leaves unbound volumes of delayed-binding claims alone', () => {
    expect(findMatchingVolume(claim, [volume('v')], true)).toBeUndefined();
    expect(names(findMatchingVolume(claim, [volume('v')], false))).toBe('v');
  });

  test('the scheduler path takes volumes usable from the node, with the access modes, not excluded', () => {
    const vols = [volume('on-b', {}, 'b'), volume('on-a', {}, 'a')];
    expect(names(findMatchingVolume(claim, vols, true, { node: node('a') }))).toBe('on-a');
    expect(findMatchingVolume(claim, vols, true, { node: node('c') })).toBeUndefined();
    expect(
      findMatchingVolume(claim, vols, true, { node: node('a'), excluded: new Set(['on-a']) }),
    ).toBeUndefined();
    const rox = volume('rox', { accessModes: ['ReadOnlyMany'] });
    expect(findMatchingVolume(claim, [rox], true, { node: node('a') })).toBeUndefined();
    // the binder path leaves access modes to its index
    expect(names(findMatchingVolume(claim, [rox], false))).toBe('rox');
  });

  test('a volume pre-bound to the claim on another node is no match at all', () => {
    const prebound = volume('pre', { claimRef: { namespace: 'ns', name: 'c' } }, 'b');
    expect(findMatchingVolume(claim, [prebound, volume('free')], true, { node: node('a') })).toBeUndefined();
    expect(names(findMatchingVolume(claim, [prebound, volume('free')], true, { node: node('b') }))).toBe(
      'pre',
    );
  });
});

describe('volumeNodeAffinityMatches', () => {
  test('labels only: no affinity matches all, matchFields match none', () => {
    expect(volumeNodeAffinityMatches(volume('v'), {})).toBe(true);
    expect(volumeNodeAffinityMatches(volume('v', {}, 'a'), { [HOSTNAME]: 'a' })).toBe(true);
    expect(volumeNodeAffinityMatches(volume('v', {}, 'a'), { [HOSTNAME]: 'b' })).toBe(false);
    const byName = volume('v', {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }],
        },
      },
    });
    expect(volumeNodeAffinityMatches(byName, { [HOSTNAME]: 'a' })).toBe(false);
  });
});

describe('volumeBoundToClaim', () => {
  test('sets the claimRef and marks the binding as the controller’s', () => {
    const bound = volumeBoundToClaim(volume('v'), claim)!;
    expect(bound.spec?.claimRef).toEqual({
      kind: 'PersistentVolumeClaim',
      namespace: 'ns',
      name: 'c',
      uid: 'uid-c',
      apiVersion: 'v1',
      resourceVersion: '7',
    });
    expect(bound.metadata?.annotations?.[ANN_BOUND_BY_CONTROLLER]).toBe('yes');
    expect(volumeBoundToClaim(bound, claim)).toBeUndefined();
  });

  test('a volume the user pre-bound gets the UID but not the annotation', () => {
    const bound = volumeBoundToClaim(volume('v', { claimRef: { namespace: 'ns', name: 'c' } }), claim)!;
    expect(bound.spec?.claimRef?.uid).toBe('uid-c');
    expect(bound.metadata?.annotations?.[ANN_BOUND_BY_CONTROLLER]).toBeUndefined();
  });
});
