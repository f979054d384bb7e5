import { prefixEnd, rangeStart } from './key-range';

describe('key ranges', () => {
  test('prefixEnd is the next byte string after every key with the prefix', () => {
    expect(prefixEnd('/registry/pods/')?.toString()).toBe('/registry/pods0');
    expect(prefixEnd(Buffer.from([0x61, 0xff]))).toEqual(Buffer.from([0x62]));
    expect(prefixEnd('')).toBeUndefined();
    expect(prefixEnd(Buffer.from([0xff, 0xff]))).toBeUndefined();
  });

  test('rangeStart uses the start key only inside the prefix', () => {
    expect(rangeStart('/a/', '/a/m').toString()).toBe('/a/m');
    expect(rangeStart('/a/', '/0').toString()).toBe('/a/');
    expect(rangeStart('/a/', undefined).toString()).toBe('/a/');
  });
});
