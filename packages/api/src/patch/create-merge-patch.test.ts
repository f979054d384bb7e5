import { createThreeWayMergePatch, createTwoWayMergePatch } from './create-merge-patch';
import { MergeItemSchema } from './merge-item.fixture';
import { strategicMergePatch } from './strategic-merge-patch';

interface Case {
  name: string;
  /** Last applied configuration. */
  original: unknown;
  /** New configuration. */
  modified: unknown;
  /** Live object. */
  current: unknown;
  twoWay: unknown;
  /** Object after applying the two-way patch to `original`, when not `modified`. */
  twoWayResult?: unknown;
  threeWay: unknown;
  /** Live object after applying the three-way patch. */
  result: unknown;
}

/** Patch generation as Kubernetes' strategicpatch computes it (cases of its own test suite). */
const cases: Case[] = [
  {
    name: 'add field to map',
    original: { name: '1' },
    modified: { name: '1', value: '1' },
    current: { name: '1', other: 'a' },
    twoWay: { value: '1' },
    threeWay: { value: '1' },
    result: { name: '1', value: '1', other: 'a' },
  },
  {
    name: 'add field to map with conflict',
    original: { name: '1' },
    modified: { name: '1', value: '1' },
    current: { name: 'a', other: 'a' },
    twoWay: { value: '1' },
    threeWay: { name: '1', value: '1' },
    result: { name: '1', value: '1', other: 'a' },
  },
  {
    name: 'add field and delete field from map',
    original: { name: '1' },
    modified: { value: '1' },
    current: { name: '1', other: 'a' },
    twoWay: { name: null, value: '1' },
    threeWay: { name: null, value: '1' },
    result: { value: '1', other: 'a' },
  },
  {
    name: 'delete field from nested map',
    original: { simpleMap: { key1: '1', key2: '1' } },
    modified: { simpleMap: { key1: '1' } },
    current: { simpleMap: { key1: '1', key2: '1', other: 'a' } },
    twoWay: { simpleMap: { key2: null } },
    threeWay: { simpleMap: { key2: null } },
    result: { simpleMap: { key1: '1', other: 'a' } },
  },
  {
    name: 'replace list of scalars with conflict',
    original: { nonMergingIntList: [1, 2] },
    modified: { nonMergingIntList: [2, 3] },
    current: { nonMergingIntList: [1, 4] },
    twoWay: { nonMergingIntList: [2, 3] },
    threeWay: { nonMergingIntList: [2, 3] },
    result: { nonMergingIntList: [2, 3] },
  },
  {
    name: 'delete all maps from merging list with conflict',
    original: { mergingList: [{ name: '1' }, { name: '2' }] },
    modified: { mergingList: [] },
    current: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', other: 'b' },
      ],
    },
    twoWay: {
      mergingList: [
        { name: '1', $patch: 'delete' },
        { name: '2', $patch: 'delete' },
      ],
    },
    threeWay: {
      mergingList: [
        { name: '1', $patch: 'delete' },
        { name: '2', $patch: 'delete' },
      ],
    },
    result: { mergingList: [] },
  },
  {
    name: 'defined null values propagate and overwrite current fields',
    original: { name: '2' },
    modified: { name: '1', value: '1', other: null },
    current: { name: 'a', other: 'a' },
    twoWay: { name: '1', value: '1', other: null },
    twoWayResult: { name: '1', value: '1' },
    threeWay: { name: '1', value: '1', other: null },
    result: { name: '1', value: '1' },
  },
  {
    name: 'delete items in lists of scalars',
    original: { mergingIntList: [1, 2, 3] },
    modified: { mergingIntList: [1, 2] },
    current: { mergingIntList: [1, 2, 3, 4] },
    twoWay: { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
    threeWay: { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2, 4] },
  },
  {
    name: 'add and delete items in lists of scalars',
    original: { mergingIntList: [1, 2, 3] },
    modified: { mergingIntList: [1, 2, 4] },
    current: { mergingIntList: [1, 2, 3, 4] },
    twoWay: {
      '$setElementOrder/mergingIntList': [1, 2, 4],
      '$deleteFromPrimitiveList/mergingIntList': [3],
      mergingIntList: [4],
    },
    threeWay: {
      '$setElementOrder/mergingIntList': [1, 2, 4],
      '$deleteFromPrimitiveList/mergingIntList': [3],
    },
    result: { mergingIntList: [1, 2, 4] },
  },
  {
    name: 'merge lists of maps',
    original: { mergingList: [{ name: '1' }, { name: '2', value: '2' }] },
    modified: {
      mergingList: [
        { name: '4', value: '4' },
        { name: '1' },
        { name: '2', value: '2' },
        { name: '3', value: '3' },
      ],
    },
    current: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', value: '2', other: 'b' },
      ],
    },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '4' }, { name: '1' }, { name: '2' }, { name: '3' }],
      mergingList: [
        { name: '4', value: '4' },
        { name: '3', value: '3' },
      ],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: '4' }, { name: '1' }, { name: '2' }, { name: '3' }],
      mergingList: [
        { name: '4', value: '4' },
        { name: '3', value: '3' },
      ],
    },
    result: {
      mergingList: [
        { name: '4', value: '4' },
        { name: '1', other: 'a' },
        { name: '2', value: '2', other: 'b' },
        { name: '3', value: '3' },
      ],
    },
  },
  {
    name: 'merge lists of maps with conflict',
    original: { mergingList: [{ name: '1' }, { name: '2', value: '2' }] },
    modified: { mergingList: [{ name: '1' }, { name: '2', value: '2' }, { name: '3', value: '3' }] },
    current: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', value: '3', other: 'b' },
      ],
    },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }, { name: '3' }],
      mergingList: [{ name: '3', value: '3' }],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }, { name: '3' }],
      mergingList: [
        { name: '2', value: '2' },
        { name: '3', value: '3' },
      ],
    },
    result: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', value: '2', other: 'b' },
        { name: '3', value: '3' },
      ],
    },
  },
  {
    name: 'add an item that already exists in the live list',
    original: { mergingList: [{ name: '1', value: 'a' }, { name: '2' }] },
    modified: { mergingList: [{ name: '1', value: 'a' }, { name: '2' }, { name: '3' }] },
    current: { mergingList: [{ name: '1', value: 'a', other: 'x' }, { name: '2' }, { name: '3' }] },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }, { name: '3' }],
      mergingList: [{ name: '3' }],
    },
    threeWay: {},
    result: { mergingList: [{ name: '1', value: 'a', other: 'x' }, { name: '2' }, { name: '3' }] },
  },
  {
    name: 'delete a map the live list no longer has, re-adding one others removed',
    original: { mergingList: [{ name: '1' }, { name: '2' }] },
    modified: { mergingList: [{ name: '2' }] },
    current: { mergingList: [{ name: '3', other: 'a' }] },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '2' }],
      mergingList: [{ name: '1', $patch: 'delete' }],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: '2' }],
      mergingList: [{ name: '2' }, { name: '1', $patch: 'delete' }],
    },
    result: { mergingList: [{ name: '2' }, { name: '3', other: 'a' }] },
  },
  {
    // The live list's order after the deletion (2, 4, then the new 3) places the server-only item.
    name: 'add map and delete map from merging list',
    original: { mergingList: [{ name: '1' }, { name: '2' }] },
    modified: { mergingList: [{ name: '2' }, { name: '3' }] },
    current: { mergingList: [{ name: '1' }, { name: '2', other: 'b' }, { name: '4', other: 'c' }] },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '2' }, { name: '3' }],
      mergingList: [{ name: '3' }, { name: '1', $patch: 'delete' }],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: '2' }, { name: '3' }],
      mergingList: [{ name: '3' }, { name: '1', $patch: 'delete' }],
    },
    result: { mergingList: [{ name: '2', other: 'b' }, { name: '4', other: 'c' }, { name: '3' }] },
  },
  {
    name: 'add map and delete map from merging list with conflict',
    original: { mergingList: [{ name: '1' }, { name: '2' }] },
    modified: { mergingList: [{ name: '2' }, { name: '3' }] },
    current: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '4', other: 'c' },
      ],
    },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '2' }, { name: '3' }],
      mergingList: [{ name: '3' }, { name: '1', $patch: 'delete' }],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: '2' }, { name: '3' }],
      mergingList: [{ name: '2' }, { name: '3' }, { name: '1', $patch: 'delete' }],
    },
    result: { mergingList: [{ name: '4', other: 'c' }, { name: '2' }, { name: '3' }] },
  },
  {
    name: 'delete a missing field from a map in a merging list with conflict',
    original: {
      mergingList: [
        { name: '1', value: '1' },
        { name: '2', value: '2' },
      ],
    },
    modified: { mergingList: [{ name: '1' }, { name: '2', value: '2' }] },
    current: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', other: 'b' },
      ],
    },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }],
      mergingList: [{ name: '1', value: null }],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }],
      mergingList: [
        { name: '1', value: null },
        { name: '2', value: '2' },
      ],
    },
    result: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', value: '2', other: 'b' },
      ],
    },
  },
  {
    name: 'nested patch merge with empty list',
    original: { name: 'hi' },
    modified: { name: 'hi', mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }] },
    current: { name: 'hi', mergingList: [{ name: 'hello2' }] },
    twoWay: { mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }] },
    twoWayResult: { name: 'hi', mergingList: [{ name: 'hello' }] },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: 'hello' }, { name: 'doesntexist' }],
      mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }],
    },
    result: { name: 'hi', mergingList: [{ name: 'hello' }, { name: 'hello2' }] },
  },
  {
    name: 'retainKeys map adds an item in a nested merging list',
    original: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b' }] } },
    modified: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } },
    current: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b' }, { name: 'x' }] } },
    twoWay: {
      retainKeysMap: {
        $retainKeys: ['mergingList', 'name'],
        '$setElementOrder/mergingList': [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
        mergingList: [{ name: 'c' }],
      },
    },
    threeWay: {
      retainKeysMap: {
        $retainKeys: ['mergingList', 'name'],
        '$setElementOrder/mergingList': [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
        mergingList: [{ name: 'c' }],
      },
    },
    result: {
      retainKeysMap: {
        name: 'foo',
        mergingList: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'x' }],
      },
    },
  },
  {
    name: 'retainKeys map deletes a nested merging list',
    original: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b' }] } },
    modified: { retainKeysMap: { name: 'foo', value: 'bar' } },
    current: { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b' }] } },
    twoWay: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'bar', mergingList: null } },
    threeWay: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'bar', mergingList: null } },
    result: { retainKeysMap: { name: 'foo', value: 'bar' } },
  },
  {
    name: 'retainKeys list of maps clears a field others set',
    original: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    modified: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    current: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a', other: 'x' }] },
    twoWay: {},
    threeWay: {
      '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
      retainKeysMergingList: [{ $retainKeys: ['name', 'value'], name: 'foo' }],
    },
    result: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
  },
  {
    name: 'retainKeys list of maps deletes a field',
    original: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    modified: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
    current: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a', other: 'x' }] },
    twoWay: {
      '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
      retainKeysMergingList: [{ $retainKeys: ['name'], name: 'foo', value: null }],
    },
    threeWay: {
      '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
      retainKeysMergingList: [{ $retainKeys: ['name'], name: 'foo', value: null }],
    },
    result: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
  },
  {
    name: 'delete and reorder in one list',
    original: {
      mergingList: [
        { name: 'a', value: 'a' },
        { name: 'b', value: 'b' },
      ],
    },
    modified: { mergingList: [{ name: 'b', value: 'b' }] },
    current: {
      mergingList: [
        { name: 'a', value: 'a' },
        { name: 'b', value: 'b' },
      ],
    },
    twoWay: {
      '$setElementOrder/mergingList': [{ name: 'b' }],
      mergingList: [{ $patch: 'delete', name: 'a' }],
    },
    threeWay: {
      '$setElementOrder/mergingList': [{ name: 'b' }],
      mergingList: [{ $patch: 'delete', name: 'a' }],
    },
    result: { mergingList: [{ name: 'b', value: 'b' }] },
  },
  {
    name: 'no change gives an empty patch',
    original: { name: 'a', retainKeysMap: { name: 'foo' } },
    modified: { name: 'a', retainKeysMap: { name: 'foo' } },
    current: { name: 'a', value: 'b', retainKeysMap: { name: 'foo' } },
    twoWay: {},
    threeWay: {},
    result: { name: 'a', value: 'b', retainKeysMap: { name: 'foo' } },
  },
];

describe('createTwoWayMergePatch and createThreeWayMergePatch', () => {
  it.each(cases)('$name', (c) => {
    const { original, modified, current } = c;
    const twoWay = createTwoWayMergePatch(original, modified, MergeItemSchema);
    expect(twoWay).toEqual(c.twoWay);
    expect(strategicMergePatch(original, twoWay, MergeItemSchema)).toEqual(c.twoWayResult ?? c.modified);
    const threeWay = createThreeWayMergePatch(original, modified, current, MergeItemSchema);
    expect(threeWay).toEqual(c.threeWay);
    expect(strategicMergePatch(current, threeWay, MergeItemSchema)).toEqual(c.result);
  });

  it('lists retainKeys sorted and builds deletion lists for removed scalars only once', () => {
    const patch = createTwoWayMergePatch(
      { retainKeysMap: { value: 'a', name: 'b', mergingIntList: [3, 3, 1] } },
      { retainKeysMap: { other: 'c', name: 'b', mergingIntList: [1] } },
      MergeItemSchema,
    );
    expect(patch).toEqual({
      retainKeysMap: {
        $retainKeys: ['mergingIntList', 'name', 'other'],
        other: 'c',
        value: null,
        '$deleteFromPrimitiveList/mergingIntList': [3],
        '$setElementOrder/mergingIntList': [1],
      },
    });
  });

  it('does not modify its inputs', () => {
    const original = { mergingIntList: [3, 1, 2] };
    const modified = { mergingIntList: [1, 2] };
    const current = { mergingIntList: [3, 1, 2, 5] };
    createThreeWayMergePatch(original, modified, current, MergeItemSchema);
    expect([original, modified, current]).toEqual([
      { mergingIntList: [3, 1, 2] },
      { mergingIntList: [1, 2] },
      { mergingIntList: [3, 1, 2, 5] },
    ]);
  });

  it('refuses conflicting changes without overwrite (kubectl apply --overwrite=false)', () => {
    const original = { name: '1' };
    const modified = { name: '1', value: '1' };
    const opts = { overwrite: false };
    expect(
      createThreeWayMergePatch(original, modified, { name: '1', other: 'a' }, MergeItemSchema, opts),
    ).toEqual({
      value: '1',
    });
    expect(() =>
      createThreeWayMergePatch(original, modified, { name: 'a', other: 'a' }, MergeItemSchema, opts),
    ).toThrow(
      'patch:\nname: "1"\nvalue: "1"\n\nconflicts with changes made from original to current:\nname: a\nother: a\n\n',
    );
    // With overwrite (kubectl's default) the configuration wins.
    expect(createThreeWayMergePatch(original, modified, { name: 'a', other: 'a' }, MergeItemSchema)).toEqual({
      name: '1',
      value: '1',
    });
  });
});
