import { numFeasibleNodesToFind } from './numFeasibleNodesToFind';

describe('numFeasibleNodesToFind', () => {
  it.each([
    [3, 0, 3],
    [99, 0, 99],
    [100, 0, 100],
    [250, 0, 120], // 50 - 2 = 48%
    [1000, 0, 420], // 50 - 8 = 42%
    [5000, 0, 500], // 50 - 40 = 10%
    [6000, 0, 300], // 50 - 48 = 2% → 5%
    [1000, 30, 300],
    [1000, 5, 100], // never fewer than 100
    [1000, 100, 1000],
  ])('%d nodes at %d%% → %d', (nodes, percentage, want) => {
    expect(numFeasibleNodesToFind(nodes, percentage)).toBe(want);
  });
});
