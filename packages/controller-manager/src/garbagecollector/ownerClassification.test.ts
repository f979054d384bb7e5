import { decideDependent } from './ownerClassification';

test('an object with a solid owner stays', () => {
  expect(decideDependent([{ uid: 'a', state: 'solid' }], [], false)).toEqual({ action: 'keep' });
  expect(decideDependent([], [], false)).toEqual({ action: 'keep' });
});

test('with a solid owner left, references to gone or foreground-deleting owners are dropped', () => {
  expect(
    decideDependent(
      [
        { uid: 'a', state: 'solid' },
        { uid: 'b', state: 'dangling' },
        { uid: 'c', state: 'waitingForDependentsDeletion' },
      ],
      [],
      false,
    ),
  ).toEqual({ action: 'removeOwnerRefs', uids: ['b', 'c'] });
});

test('Background: dependents of a gone owner are deleted', () => {
  expect(decideDependent([{ uid: 'a', state: 'dangling' }], [], false)).toEqual({
    action: 'delete',
    propagationPolicy: 'Background',
  });
});

test('Foreground ordering: a dependent with dependents of its own is deleted in the foreground, so grandchildren go first', () => {
  // Deployment (foreground) -> ReplicaSet (has pods) -> Pods.
  expect(decideDependent([{ uid: 'deploy', state: 'waitingForDependentsDeletion' }], [], true)).toEqual({
    action: 'delete',
    propagationPolicy: 'Foreground',
  });
  // A leaf (pod) goes in the background.
  expect(decideDependent([{ uid: 'rs', state: 'waitingForDependentsDeletion' }], [], false)).toEqual({
    action: 'delete',
    propagationPolicy: 'Background',
  });
});

test("the dependent's own finalizers choose the propagation otherwise", () => {
  expect(decideDependent([{ uid: 'a', state: 'dangling' }], ['orphan'], true)).toEqual({
    action: 'delete',
    propagationPolicy: 'Orphan',
  });
  expect(decideDependent([{ uid: 'a', state: 'dangling' }], ['foregroundDeletion'], false)).toEqual({
    action: 'delete',
    propagationPolicy: 'Foreground',
  });
});
