import { partitionPoint } from './partition-point';

describe('partitionPoint', () => {
  const items = [1, 3, 3, 5, 8];

  test.each([
    [0, 0],
    [1, 1],
    [3, 3],
    [4, 3],
    [8, 5],
    [9, 5],
  ])('the items below or at %i end at index %i', (x, index) => {
    expect(partitionPoint(items, 0, (item) => item <= x)).toBe(index);
  });

  test('starts at lo and answers lo when the first item there fails', () => {
    expect(partitionPoint(items, 2, (item) => item < 5)).toBe(3);
    expect(partitionPoint(items, 3, (item) => item < 5)).toBe(3);
    expect(partitionPoint([], 0, () => true)).toBe(0);
  });
});
