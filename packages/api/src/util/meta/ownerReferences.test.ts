import {
  getControllerOf,
  groupVersionString,
  isControlledBy,
  newControllerRef,
  OwnerReferenceLike,
} from './ownerReferences';

const ref = (uid: string, controller?: boolean | null): OwnerReferenceLike => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: `rs-${uid}`,
  uid,
  ...(controller === undefined ? {} : { controller }),
});

describe('getControllerOf', () => {
  it.each<[string, OwnerReferenceLike[] | null | undefined, string | undefined]>([
    ['no metadata list', undefined, undefined],
    ['null list', null, undefined],
    ['empty list', [], undefined],
    ['no controller', [ref('a'), ref('b', false), ref('c', null)], undefined],
    ['the controller', [ref('a'), ref('b', true)], 'b'],
    ['the first controller', [ref('a', true), ref('b', true)], 'a'],
  ])('%s', (_name, refs, uid) => {
    expect(getControllerOf({ metadata: { ownerReferences: refs } })?.uid).toBe(uid);
  });

  it('handles objects without metadata', () => {
    expect(getControllerOf({})).toBeUndefined();
    expect(getControllerOf({ metadata: null })).toBeUndefined();
  });
});

describe('isControlledBy', () => {
  const owner = { metadata: { name: 'rs-b', uid: 'b' } };
  it.each<[string, OwnerReferenceLike[], boolean]>([
    ['controlled', [ref('b', true)], true],
    ['owned but not controlled', [ref('b')], false],
    ['controlled by another', [ref('a', true), ref('b')], false],
    ['nothing', [], false],
  ])('%s', (_name, refs, expected) => {
    expect(isControlledBy({ metadata: { ownerReferences: refs } }, owner)).toBe(expected);
  });
});

describe('newControllerRef', () => {
  it('points at the owner as controller, blocking its deletion', () => {
    expect(
      newControllerRef(
        { metadata: { name: 'web', uid: 'u1' } },
        { group: 'apps', version: 'v1', kind: 'Deployment' },
      ),
    ).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'web',
      uid: 'u1',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('uses the bare version for the core group', () => {
    expect(
      newControllerRef({ metadata: { name: 'p', uid: 'u' } }, { group: '', version: 'v1', kind: 'Pod' })
        .apiVersion,
    ).toBe('v1');
  });

  it('round-trips with isControlledBy', () => {
    const owner = { metadata: { name: 'job', uid: 'u2' } };
    const child = {
      metadata: {
        ownerReferences: [newControllerRef(owner, { group: 'batch', version: 'v1', kind: 'Job' })],
      },
    };
    expect(isControlledBy(child, owner)).toBe(true);
    expect(getControllerOf(child)?.name).toBe('job');
  });

  it.each<[string, string, string]>([
    ['', 'v1', 'v1'],
    ['apps', 'v1', 'apps/v1'],
    ['rbac.authorization.k8s.io', 'v1', 'rbac.authorization.k8s.io/v1'],
  ])('groupVersionString(%j, %j) = %j', (group, version, text) => {
    expect(groupVersionString(group, version)).toBe(text);
  });
});
