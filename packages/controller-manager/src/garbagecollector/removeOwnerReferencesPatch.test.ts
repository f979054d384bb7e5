import { removeOwnerReferencesMergePatch, removeOwnerReferencesPatch } from './removeOwnerReferencesPatch';

const obj = {
  metadata: {
    name: 'w',
    uid: 'dep-uid',
    resourceVersion: '42',
    ownerReferences: [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'a-uid' },
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'b', uid: 'b-uid' },
    ],
  },
};

test('the strategic merge patch deletes the references by uid, guarded by the object uid', () => {
  expect(removeOwnerReferencesPatch(obj, ['a-uid'])).toEqual({
    metadata: { ownerReferences: [{ $patch: 'delete', uid: 'a-uid' }], uid: 'dep-uid' },
  });
});

test('the JSON merge patch lists the remaining references at the resourceVersion read', () => {
  expect(removeOwnerReferencesMergePatch(obj, ['a-uid'])).toEqual({
    metadata: {
      ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'b', uid: 'b-uid' }],
      resourceVersion: '42',
    },
  });
  expect(removeOwnerReferencesMergePatch(obj, ['a-uid', 'b-uid'])).toEqual({
    metadata: { ownerReferences: [], resourceVersion: '42' },
  });
});
