import { FirstWritesAfter, type FirstWrite } from './first-writes-after';

const write = (key: string, prevRev: number, createRev = prevRev): FirstWrite => ({
  key: Buffer.from(key),
  prevRev,
  createRev,
});
const keys = (writes: readonly FirstWrite[], first: number) =>
  writes.slice(first).map((w) => w.key.toString());

describe('FirstWritesAfter', () => {
  const range = [Buffer.from('/p/'), Buffer.from('/p0')] as const;

  test('keeps the first write of each key; keys created since are known but not listed', () => {
    const after = new FirstWritesAfter(10, ...range);
    expect(after.scannedTo).toBe(10);
    after.add([write('/p/b', 4, 2), write('/p/new', 0, 0)], 12);
    // later writes of known keys are not first writes
    after.add([write('/p/b', 11, 2), write('/p/new', 12, 12), write('/p/a', 7, 7)], 15);
    expect(after.scannedTo).toBe(15);
    expect(after.size).toBe(3);
    const { writes, first } = after.existedFrom(Buffer.from('/p/'));
    expect(writes.slice(first)).toEqual([write('/p/a', 7, 7), write('/p/b', 4, 2)]);
  });

  test('orders keys by their bytes, as the store does, and starts at the given key', () => {
    const after = new FirstWritesAfter(1, ...range);
    // as UTF-16 the emoji (0xD83D 0xDE00) sorts before U+FF21; as UTF-8 bytes (F0… against EF…) after it
    after.add([write('/p/\u{1F600}', 1), write('/p/\uFF21', 1), write('/p/z', 1), write('/p/c', 1)], 2);
    const all = after.existedFrom(Buffer.from('/p/'));
    expect(keys(all.writes, all.first)).toEqual(['/p/c', '/p/z', '/p/\uFF21', '/p/\u{1F600}']);
    const tail = after.existedFrom(Buffer.from('/p/d'));
    expect(keys(tail.writes, tail.first)).toEqual(['/p/z', '/p/\uFF21', '/p/\u{1F600}']);
  });

  test('covers only its own revision and range', () => {
    const after = new FirstWritesAfter(5, ...range);
    expect(after.covers(5, Buffer.from('/p/'), Buffer.from('/p0'))).toBe(true);
    expect(after.covers(6, ...range)).toBe(false);
    expect(after.covers(5, Buffer.from('/q/'), Buffer.from('/q0'))).toBe(false);
  });
});
