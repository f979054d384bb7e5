import { ClusterSizeTTL, hasTTL, NODE_TTL_ANNOTATION } from './ttlBoundaries';

/** The TTL after growing or shrinking the cluster to `n` nodes. */
function resize(size: ClusterSizeTTL, n: number): number {
  while (size.nodeCount < n) size.nodeAdded();
  while (size.nodeCount > n) size.nodeRemoved();
  return size.ttlSeconds;
}

describe('the TTL for the cluster size', () => {
  it.each([
    [0, 0],
    [1, 0],
    [100, 0],
    [101, 15],
    [500, 15],
    [501, 30],
    [1000, 30],
    [1001, 60],
    [2000, 60],
    [2001, 300],
    [10000, 300],
    [10001, 600],
  ])('growing to %i nodes gives %i s', (n, ttl) => {
    expect(resize(new ClusterSizeTTL(), n)).toBe(ttl);
  });

  it('keeps the larger TTL when shrinking until below the band minimum', () => {
    const size = new ClusterSizeTTL();
    expect(resize(size, 101)).toBe(15);
    expect(resize(size, 100)).toBe(15);
    expect(resize(size, 90)).toBe(15);
    expect(resize(size, 89)).toBe(0);
    expect(resize(size, 100)).toBe(0);
    expect(resize(size, 101)).toBe(15);
    expect(resize(size, 1001)).toBe(60);
    expect(resize(size, 900)).toBe(60);
    expect(resize(size, 899)).toBe(30);
    expect(resize(size, 450)).toBe(30);
    expect(resize(size, 449)).toBe(15);
    expect(resize(size, 2001)).toBe(300);
    expect(resize(size, 1800)).toBe(300);
    expect(resize(size, 1799)).toBe(60);
  });

  it('never counts below zero', () => {
    const size = new ClusterSizeTTL();
    size.nodeRemoved();
    expect(size.nodeCount).toBe(0);
    expect(size.ttlSeconds).toBe(0);
  });
});

describe('whether a node already carries the TTL', () => {
  it.each([
    [undefined, 0, false],
    [{}, 0, false],
    [{ [NODE_TTL_ANNOTATION]: '0' }, 0, true],
    [{ [NODE_TTL_ANNOTATION]: '15' }, 0, false],
    [{ [NODE_TTL_ANNOTATION]: '+15' }, 15, true],
    [{ [NODE_TTL_ANNOTATION]: 'fifteen' }, 15, false],
    [{ [NODE_TTL_ANNOTATION]: '' }, 0, false],
  ])('%j for %i → %s', (annotations, ttl, expected) => {
    expect(hasTTL(annotations, ttl)).toBe(expected);
  });
});
