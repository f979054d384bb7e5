import {
  compareScaled,
  digitCount,
  divPow10AwayFromZero,
  pow10,
  removeFactors,
  roundToNano,
} from './bigdecimal';

describe('decimal helpers', () => {
  it.each<[bigint, number, bigint]>([
    [15n, 1, 2n],
    [-15n, 1, -2n],
    [10n, 1, 1n],
    [-10n, 1, -1n],
    [1n, 5, 1n],
    [-1n, 5, -1n],
    [0n, 5, 0n],
    [1n, 1000000, 1n],
    [12345n, 0, 12345n],
    [12n, -2, 1200n],
  ])('divPow10AwayFromZero(%d, %d) = %d', (v, n, expected) => {
    expect(divPow10AwayFromZero(v, n)).toBe(expected);
  });

  it.each<[bigint, bigint, bigint, number]>([
    [1000n, 10n, 1n, 3],
    [-1200n, 10n, -12n, 2],
    [7n, 10n, 7n, 0],
    [3n * 1024n * 1024n, 1024n, 3n, 2],
  ])('removeFactors(%d, %d) = %d × base^%d', (v, base, rest, times) => {
    expect(removeFactors(v, base)).toEqual({ rest, times });
  });

  it.each<[bigint, number, bigint, number, number]>([
    [1n, 0, 1000n, 3, 0],
    [1n, 0, 999n, 3, 1],
    [-1n, 0, -999n, 3, -1],
    [0n, 0, 0n, 100, 0],
    [1n, -1000, 1n, 0, 1],
    [-1n, -1000, 1n, 0, -1],
    [5n, -999, 1n, -1000, -1],
  ])('compareScaled(%d×10^-%d, %d×10^-%d) = %d', (a, sa, b, sb, expected) => {
    expect(compareScaled(a, sa, b, sb)).toBe(expected);
  });

  it('pow10, digitCount and roundToNano', () => {
    expect(pow10(0)).toBe(1n);
    expect(pow10(3)).toBe(1000n);
    expect(pow10(100)).toBe(10n ** 100n);
    expect(digitCount(0n)).toBe(1);
    expect(digitCount(-12345n)).toBe(5);
    expect(roundToNano(15n, 10)).toEqual([2n, 9]);
    expect(roundToNano(15n, 9)).toEqual([15n, 9]);
    expect(roundToNano(15n, -3)).toEqual([15n, -3]);
  });
});
