import { MergeItemSchema } from './merge-item.fixture';
import { StrategicMergeError } from './strategic-merge-error';
import { strategicMergePatch } from './strategic-merge-patch';

interface Case {
  name: string;
  original: unknown;
  patch: unknown;
  result: unknown;
}

/** Applying patches as Kubernetes' strategicpatch package does (cases of its own test suite). */
const mergeItemCases: Case[] = [
  {
    name: 'unique scalars when merging lists',
    original: { mergingIntList: [1, 2] },
    patch: { mergingIntList: [2, 3] },
    result: { mergingIntList: [1, 2, 3] },
  },
  {
    name: '$patch: delete on a nested map leaves it empty',
    original: { simpleMap: { key1: '1', key2: '1' } },
    patch: { simpleMap: { $patch: 'delete' } },
    result: { simpleMap: {} },
  },
  {
    name: '$patch: replace as a list element replaces the whole list',
    original: { mergingList: [{ name: 1 }, { name: 2 }] },
    patch: { mergingList: [{ $patch: 'replace' }] },
    result: { mergingList: [] },
  },
  {
    name: '$patch: replace on the root map',
    original: { name: '1', value: '1' },
    patch: { other: 'a', $patch: 'replace' },
    result: { other: 'a' },
  },
  {
    name: 'delete removes every duplicate entry',
    original: { mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }] },
    patch: {
      mergingList: [
        { name: 1, $patch: 'delete' },
        { name: 3, $patch: 'delete' },
      ],
    },
    result: { mergingList: [{ name: 2, value: 'a' }] },
  },
  {
    name: 'retainKeys map merges fields when no $retainKeys is sent',
    original: { retainKeysMap: { name: 'foo', value: 'a' } },
    patch: { retainKeysMap: { value: 'b' } },
    result: { retainKeysMap: { name: 'foo', value: 'b' } },
  },
  {
    name: 'patch order wins over live order for the items it names',
    original: { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
    patch: {
      mergingList: [
        { name: 3, value: 'c' },
        { name: 1, value: 'a' },
      ],
    },
    result: {
      mergingList: [
        { name: 2, value: 'b' },
        { name: 3, value: 'c' },
        { name: 1, value: 'a' },
      ],
    },
  },
  {
    name: 'patch order in a merging int list',
    original: { mergingIntList: [1, 2, 3] },
    patch: { mergingIntList: [3, 1] },
    result: { mergingIntList: [2, 3, 1] },
  },
  {
    name: 'new items the live list cannot place come first',
    original: { mergingList: [{ name: 'a' }, { name: 'b' }] },
    patch: { mergingList: [{ name: 'c' }] },
    result: { mergingList: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] },
  },
  {
    name: '$setElementOrder may name items the list does not have',
    original: { mergingList: [{ name: 1 }, { name: 3 }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }],
      mergingList: [
        { name: 3, value: '3' },
        { name: 1, value: '1' },
      ],
    },
    result: {
      mergingList: [
        { name: 3, value: '3' },
        { name: 1, value: '1' },
      ],
    },
  },
  {
    name: '$setElementOrder alone reorders an int list',
    original: { mergingIntList: [1, 3] },
    patch: { '$setElementOrder/mergingIntList': [3, 2, 1] },
    result: { mergingIntList: [3, 1] },
  },
  {
    name: 'server-only items keep their place relative to items the live list orders',
    original: { mergingList: [{ name: 'C' }, { name: 'B' }, { name: 'D' }, { name: 'A' }, { name: 'E' }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 'A' }, { name: 'B' }],
      mergingList: [
        { name: 'A', value: 'a' },
        { name: 'B', value: 'b' },
      ],
    },
    result: {
      mergingList: [
        { name: 'C' },
        { name: 'D' },
        { name: 'A', value: 'a' },
        { name: 'B', value: 'b' },
        { name: 'E' },
      ],
    },
  },
  {
    name: '$deleteFromPrimitiveList of a missing value changes nothing',
    original: { mergingIntList: [1, 2] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2] },
  },
  {
    name: '$deleteFromPrimitiveList does not create an absent list',
    original: { name: 'x' },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { name: 'x' },
  },
  {
    name: '$deleteFromPrimitiveList deletes from a list without merge strategy too',
    original: { nonMergingIntList: [1, 2, 3] },
    patch: { '$deleteFromPrimitiveList/nonMergingIntList': [2] },
    result: { nonMergingIntList: [1, 3] },
  },
  {
    name: 'add and delete in a list of scalars with $setElementOrder',
    original: { mergingIntList: [1, 2, 3, 4] },
    patch: { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2, 4] },
  },
  {
    name: 'a new list drops directive items',
    original: { name: 'hi' },
    patch: { mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }] },
    result: { name: 'hi', mergingList: [{ name: 'hello' }] },
  },
  {
    name: 'a delete directive for an absent item next to a new one',
    original: { mergingList: [{ name: 'hello2' }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 'hello' }, { name: 'doesntexist' }],
      mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }],
    },
    result: { mergingList: [{ name: 'hello' }, { name: 'hello2' }] },
  },
  {
    name: '$retainKeys clears the fields it does not list',
    original: { retainKeysMap: { name: 'foo', value: 'a', other: 'x' } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'b' } },
    result: { retainKeysMap: { name: 'foo', value: 'b' } },
  },
  {
    name: '$retainKeys in merging list items',
    original: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a', other: 'x' }] },
    patch: {
      '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
      retainKeysMergingList: [{ $retainKeys: ['name', 'value'], name: 'foo' }],
    },
    result: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
  },
  {
    name: 'non-merging lists are replaced',
    original: { nonMergingList: [{ name: 1, value: 'a' }, { name: 2 }] },
    patch: { nonMergingList: [{ name: 1 }] },
    result: { nonMergingList: [{ name: 1 }] },
  },
  {
    name: 'replace strategy on a raw value',
    original: { replacingItem: { a: 1, b: { c: 2 } } },
    patch: { replacingItem: { b: { d: 3 } } },
    result: { replacingItem: { b: { d: 3 } } },
  },
  {
    name: 'a raw value merges its top-level keys',
    original: { rawItem: { a: 1, b: { c: 2 }, e: 'x' } },
    patch: { rawItem: { a: 2, e: null, f: [1] } },
    result: { rawItem: { a: 2, b: { c: 2 }, f: [1] } },
  },
  {
    name: 'null deletes, unmatched nulls are dropped, including inside new values',
    original: { name: 'a', simpleMap: { k: 'v' } },
    patch: {
      name: null,
      value: null,
      simpleMap: { k: null, n: '1' },
      mergingList: [{ name: 'x', value: null }],
    },
    result: { simpleMap: { n: '1' }, mergingList: [{ name: 'x' }] },
  },
  {
    name: 'values of another JSON type replace the original',
    original: { mergingList: [{ name: 1 }] },
    patch: { mergingList: { name: 1 } },
    result: { mergingList: { name: 1 } },
  },
];

describe('strategicMergePatch on a struct with every kind of merge metadata', () => {
  it.each(mergeItemCases)('$name', ({ original, patch, result }) => {
    expect(strategicMergePatch(original, patch, MergeItemSchema)).toEqual(result);
  });
});

const errorCases: { name: string; original: unknown; patch: unknown; message: string; code: number }[] = [
  {
    name: 'missing merge key',
    original: { mergingList: [{ name: '1', value: 'a' }] },
    patch: { mergingList: [{ value: 'b', other: 'c' }] },
    message: 'map: map[other:c value:b] does not contain declared merge key: name',
    code: 500,
  },
  {
    name: 'delete directive without merge key',
    original: { mergingList: [{ name: '1' }] },
    patch: { mergingList: [{ $patch: 'delete', value: 'b' }] },
    message: 'map: map[$patch:delete value:b] does not contain declared merge key: name',
    code: 500,
  },
  {
    name: 'unknown $patch value in a map',
    original: { simpleMap: { a: 'b' } },
    patch: { simpleMap: { $patch: 'remove', x: '1' } },
    message: 'unknown patch type: remove in map: map[$patch:remove x:1]',
    code: 500,
  },
  {
    name: '$patch: merge in a map is not accepted either',
    original: { simpleMap: { a: 'b' } },
    patch: { simpleMap: { $patch: 'merge' } },
    message: 'unknown patch type: merge in map: map[$patch:merge]',
    code: 500,
  },
  {
    name: 'unknown $patch value in a list',
    original: { mergingList: [{ name: 'a' }] },
    patch: { mergingList: [{ $patch: 'remove', name: 'a' }] },
    message: 'unknown patch type: remove in map: map[$patch:remove name:a]',
    code: 500,
  },
  {
    name: '$patch: merge in a list',
    original: { mergingList: [{ name: 'a' }] },
    patch: { mergingList: [{ $patch: 'merge' }] },
    message: 'merging lists cannot yet be specified in the patch',
    code: 500,
  },
  {
    name: 'patch list out of $setElementOrder',
    original: { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }],
      mergingList: [
        { name: 3, value: '3' },
        { name: 1, value: '1' },
      ],
    },
    message:
      "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
    code: 500,
  },
  {
    name: 'a set key missing from $retainKeys',
    original: { retainKeysMap: { name: 'foo' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: 'b' } },
    message: 'invalid patch format of retainKeys',
    code: 400,
  },
  {
    name: '$retainKeys that is not a list',
    original: { retainKeysMap: { name: 'foo' } },
    patch: { retainKeysMap: { $retainKeys: 'name' } },
    message: 'invalid patch format of retainKeys',
    code: 400,
  },
  {
    name: 'malformed $setElementOrder key',
    original: { mergingList: [{ name: 'a' }] },
    patch: { $setElementOrderX: [] },
    message: 'invalid patch format of setElementOrder list',
    code: 400,
  },
  {
    name: 'malformed $deleteFromPrimitiveList key',
    original: { mergingIntList: [1] },
    patch: { $deleteFromPrimitiveList: [1] },
    message: 'invalid patch format of primitive list',
    code: 400,
  },
  {
    name: 'lists of lists',
    original: { mergingIntList: [1] },
    patch: { mergingIntList: [[1]] },
    message: 'list element types are not identical: [[1] [[1]]]',
    code: 500,
  },
  {
    name: 'lists of lists in a merging list',
    original: { mergingIntList: [[1]] },
    patch: { mergingIntList: [[2]] },
    message: 'lists of lists are not supported',
    code: 422,
  },
  {
    name: 'a raw value has no fields to merge nested maps by',
    original: { rawItem: { b: { c: 2 } } },
    patch: { rawItem: { b: { d: 3 } } },
    message: 'unable to find api field in struct RawExtension for the json field "b"',
    code: 500,
  },
  {
    name: 'a merging list of structs without a merge key',
    original: { badList: [{ name: 'a' }] },
    patch: { badList: [{ name: 'b' }] },
    message: 'cannot merge lists without merge key for type struct',
    code: 500,
  },
  {
    name: 'an undeclared field holding a map on both sides',
    original: { nope: { a: 1 } },
    patch: { nope: { b: 2 } },
    message: 'unable to find api field in struct MergeItem for the json field "nope"',
    code: 500,
  },
];

describe('patches strategic merge rejects', () => {
  it.each(errorCases)('$name', ({ original, patch, message, code }) => {
    let caught: unknown;
    try {
      strategicMergePatch(original, patch, MergeItemSchema);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StrategicMergeError);
    expect((caught as StrategicMergeError).message).toBe(message);
    expect((caught as StrategicMergeError).code).toBe(code);
  });

  it('answers with the Status bodies Kubernetes sends', () => {
    const invalid = new StrategicMergeError('lists of lists are not supported', 'Invalid').toStatus();
    expect(invalid).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'the server rejected our request due to an error in our request',
      details: {
        causes: [{ reason: 'UnexpectedServerResponse', message: 'lists of lists are not supported' }],
      },
    });
    const bad = new StrategicMergeError('invalid patch format of retainKeys', 'BadRequest').toStatus();
    expect(bad).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid patch format of retainKeys',
    });
    const internal = new StrategicMergeError(
      'map: map[] does not contain declared merge key: name',
    ).toStatus();
    expect(internal).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'map: map[] does not contain declared merge key: name',
      code: 500,
    });
  });
});
